import type { Flavor } from '@orchard/meta';
import { orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import type { Codec, CodecContext } from '../codec.js';

/** What `runCodecConformance` needs beyond the codec. */
export interface CodecConformanceOptions {
  /** The flavor of the `CodecContext` the suite encodes and decodes with. Default `orchFlavor`. */
  readonly flavor?: Flavor;
  /**
   * Extra objects that must survive `decode(encode(x))` unchanged, added to the built-in samples
   * (a ConfigMap, a Namespace, a Secret, a ConfigMapList). Use it for the kinds a codec specialises in.
   */
  readonly samples?: ReadonlyArray<readonly [name: string, value: unknown]>;
}

// Built-in kinds every codec (including Protobuf, which encodes only known kinds) represents losslessly.
const builtInSamples: ReadonlyArray<readonly [string, unknown]> = [
  [
    'ConfigMap',
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'game-config',
        namespace: 'default',
        uid: '6f1c9f3e-1d2b-4c5a-9e8f-0a1b2c3d4e5f',
        resourceVersion: '42',
        creationTimestamp: '2024-05-06T07:08:09Z',
        labels: { app: 'game', 'example.com/tier': 'front' },
        annotations: { note: 'ü ☃ "quoted"\nsecond line' },
      },
      data: { color: 'blue', empty: '', 'game.properties': 'lives=3\nenemies=aliens\n' },
    },
  ],
  [
    'Namespace',
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', finalizers: ['example.com/keep'] },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    },
  ],
  [
    'Secret',
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      immutable: true,
      data: { password: 'aHVudGVyMg==' },
      type: 'Opaque',
    },
  ],
  [
    'ConfigMapList',
    {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '7', continue: 'abc' },
      items: [
        // Items carry no TypeMeta: the list's kind says what they are (as upstream serves lists).
        { metadata: { name: 'a', namespace: 'x' }, data: { k: 'v' } },
        { metadata: { name: 'b', namespace: 'x' } },
      ],
    },
  ],
];

// Compares bytes only: an encoder may hand back a Uint8Array subclass with extra properties.
const bytesOf = (b: Uint8Array): number[] => Array.from(b);

/**
 * The suite every `Codec` runs: the built-in samples (and `options.samples`) round-trip through
 * `encode` then `decode` unchanged, encoding is deterministic, bytes that are not a document are
 * rejected (never a crash of another kind, never a silent value), and a codec that streams frames a
 * watch event into non-empty bytes. Call it from a test file:
 * `runCodecConformance('json', jsonCodec)`.
 */
export function runCodecConformance(name: string, codec: Codec, options: CodecConformanceOptions = {}): void {
  const context: CodecContext = { flavor: options.flavor ?? orchFlavor };
  const samples = [...builtInSamples, ...(options.samples ?? [])];

  describe(`Codec conformance: ${name}`, () => {
    it('names a bare media type (no parameters)', () => {
      expect(codec.mediaType).toMatch(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/);
    });

    it.each(samples.map(([n, v]) => [n, v] as const))('round-trips a %s', (_, value) => {
      const bytes = codec.encode(value, context);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytes.length).toBeGreaterThan(0);
      expect(codec.decode(bytes, context)).toEqual(value);
    });

    it('encodes the same value to the same bytes', () => {
      for (const [, value] of samples) {
        expect(bytesOf(codec.encode(value, context))).toEqual(
          bytesOf(codec.encode(structuredClone(value), context)),
        );
      }
    });

    it('re-encodes a decoded value to the bytes it came from', () => {
      for (const [, value] of samples) {
        const bytes = codec.encode(value, context);
        expect(bytesOf(codec.encode(codec.decode(bytes, context), context))).toEqual(bytesOf(bytes));
      }
    });

    it('rejects bytes that are not a document with an error', () => {
      // A truncated encoding of a real object: every codec must notice it is incomplete.
      const bytes = codec.encode(builtInSamples[0]![1], context);
      const truncated = bytes.subarray(0, Math.floor(bytes.length / 2));
      expect(() => codec.decode(truncated, context)).toThrow(Error);
    });

    it('supports the built-in kinds it is offered for', () => {
      if (!codec.supports) return;
      expect(codec.supports({ group: '', version: 'v1', kind: 'ConfigMap' }, context)).toBe(true);
    });

    it('frames a watch event into bytes when it streams', () => {
      if (!codec.stream) return;
      expect(codec.stream.mediaType.length).toBeGreaterThan(0);
      const frame = codec.stream.encodeEvent({ type: 'ADDED', object: builtInSamples[0]![1] }, context);
      expect(frame).toBeInstanceOf(Uint8Array);
      expect(frame.length).toBeGreaterThan(codec.encode(builtInSamples[0]![1], context).length - 1);
    });
  });
}
