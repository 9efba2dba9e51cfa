import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { createCborCodec } from './cbor/cbor-codec.js';
import { joinChunks } from './chunks.js';
import type { Codec, CodecContext, ListSection } from './codec.js';
import { jsonCodec } from './json.js';
import { samplePodList } from './protobuf/fixtures.js';
import { createProtobufCodec } from './protobuf/protobuf-codec.js';

/** `codec.joinList` around `codec.listSection` of the items, as the server joins a list. */
function join(codec: Codec, list: unknown, items: readonly Uint8Array[], context: CodecContext) {
  const section = codec.listSection?.(list, items, context);
  return section ? codec.joinList?.(list, section, context) : undefined;
}

/** A ConfigMapList of `n` items with some variety (sizes cross the 1- and 2-byte length heads). */
function configMapList(n: number): ApiObject & { items: ApiObject[] } {
  return {
    kind: 'ConfigMapList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '42', continue: n > 3 ? 'token' : undefined } as Record<string, unknown>,
    items: Array.from({ length: n }, (_, i) => ({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: `cm-${i}`,
        namespace: 'ns',
        uid: `uid-${i}`,
        resourceVersion: String(100 + i),
        labels: i % 2 ? { a: 'b', ü: 'ß' } : undefined,
      } as Record<string, unknown>,
      data: { k: 'v'.repeat(i * 7) },
    })),
  };
}

const flavors = [orchFlavor, kubernetesFlavor];
const counts = [0, 1, 23, 24, 255, 256, 300];

describe.each(flavors)('joinList equals encode of the whole list ($name flavor)', (flavor) => {
  const codecs: Codec[] = [jsonCodec, createCborCodec(), createProtobufCodec(flavor)];
  const context = { flavor };
  for (const codec of codecs) {
    it.each(counts)(`${codec.mediaType}: a ConfigMapList of %i items, byte for byte`, (n) => {
      const list = configMapList(n);
      const items = list.items.map((i) => codec.encode(i, context));
      const joined = join(codec, { ...list, items: [] }, items, context);
      expect(joined).toBeDefined();
      expect(Buffer.from(joinChunks(joined ?? [])).equals(Buffer.from(codec.encode(list, context)))).toBe(
        true,
      );
    });
  }

  it('items of 16 KiB and more (passed through as their own chunks) join byte for byte', () => {
    const list = configMapList(5);
    for (const [i, item] of list.items.entries())
      (item as { data: object }).data = { k: 'x'.repeat(i * 9000) };
    for (const codec of codecs) {
      const items = list.items.map((i) => codec.encode(i, context));
      const joined = joinChunks(join(codec, { ...list, items: [] }, items, context) ?? []);
      expect(Buffer.from(joined).equals(Buffer.from(codec.encode(list, context)))).toBe(true);
    }
  });

  it('a PodList (nested messages, maps, quantities) joins byte for byte in every encoding', () => {
    const pods = samplePodList(3) as ApiObject & { items: ApiObject[] };
    // As the server lists them: every item with its kind (a Protobuf body needs one).
    const list = { ...pods, items: pods.items.map((p) => ({ apiVersion: 'v1', kind: 'Pod', ...p })) };
    for (const codec of codecs) {
      const items = list.items.map((i) => codec.encode(i, context));
      const joined = joinChunks(join(codec, { ...list, items: [] }, items, context) ?? []);
      expect(Buffer.from(joined).equals(Buffer.from(codec.encode(list, context)))).toBe(true);
    }
  });

  it('one items section, built once without a pool, joins around different heads byte for byte', () => {
    const list = configMapList(40);
    for (const codec of codecs) {
      const items = list.items.map((i) => codec.encode(i, context));
      const section = codec.listSection?.({ ...list, items: [] }, items, context);
      expect(section?.count).toBe(40);
      for (const resourceVersion of ['42', '1234567']) {
        const whole = { ...list, metadata: { ...list.metadata, resourceVersion } };
        const joined = joinChunks(
          codec.joinList?.({ ...whole, items: [] }, section as ListSection, context) ?? [],
        );
        expect(Buffer.from(joined).equals(Buffer.from(codec.encode(whole, context)))).toBe(true);
      }
    }
  });

  it('refuses a list whose empty items are not its last member, rather than write a wrong body', () => {
    const { items: _, ...rest } = configMapList(1);
    const list = { items: [], ...rest };
    expect(() => join(jsonCodec, list, [], context)).toThrow(/empty items/);
    expect(() => join(createCborCodec(), list, [], context)).toThrow(/empty items/);
  });
});
