import type { ByteChunks, ChunkPool, Codec } from '@orchard/codecs';
import type { Flavor } from '@orchard/meta';
import { encodedOnce } from '@orchard/watch-cache';
import type { ListSectionCache } from './list-section-cache.js';

/**
 * Serialize once (issue 18): the bytes of a watch-cache object, or of a list of them, with `codec`.
 * An object's bytes are built on its first read and kept beside it by the watch cache; a list is
 * its head and end around its items' kept bytes when the codec can join them (JSON, Protobuf,
 * CBOR), as chunks (small parts copied into `chunkPool`'s buffers; a repeated list of the same
 * objects by the same request reuses the items section `listSections` keeps), else encoded whole.
 * Byte for byte what `codec.encode` gives.
 */
export function encodeCached(
  codec: Codec,
  value: unknown,
  shape: 'object' | 'list',
  flavor: Flavor,
  chunkPool?: ChunkPool,
  listSections?: { readonly cache: ListSectionCache; readonly request: string },
): Uint8Array | ByteChunks {
  const context = chunkPool ? { flavor, chunkPool } : { flavor };
  if (typeof value !== 'object' || value === null) return codec.encode(value, context);
  if (shape === 'object') return encodedOnce(value, codec, () => codec.encode(value, context));
  const items = (value as { items?: unknown }).items;
  if (!codec.joinList || !codec.listSection || !Array.isArray(items)) return codec.encode(value, context);
  const list = { ...value, items: [] };
  const bodies = () =>
    items.map((item: object) => encodedOnce(item, codec, () => codec.encode(item, context)));
  const found = listSections?.cache.lookup(codec, listSections.request, items) ?? { kind: 'new' };
  if (found.kind === 'kept') return codec.joinList(list, found.section, context);
  if (found.kind === 'again') {
    // Built without the pool: a kept section outlives the response.
    const section = codec.listSection(list, bodies(), { flavor });
    listSections?.cache.keep(found.entry, section);
    return codec.joinList(list, section, context);
  }
  return codec.joinList(list, codec.listSection(list, bodies(), context), context);
}

const encoder = new TextEncoder();
const eventEnd = encoder.encode('}\n');
const eventHeads = new Map<string, Uint8Array>();

/**
 * A JSON watch event (`{"type":…,"object":…}` and a newline) around the object's kept bytes, the
 * same bytes get and list answer with: what `JSON.stringify` of the event gives. Undefined for
 * other encodings (their events are encoded whole, once per object and type, in `watch.ts`).
 */
export function jsonEventFromCached(
  codec: Codec,
  type: string,
  object: object,
  flavor: Flavor,
): Uint8Array | undefined {
  if (codec.mediaType !== 'application/json' || codec.stream?.mediaType !== 'application/json')
    return undefined;
  let head = eventHeads.get(type);
  if (!head) {
    head = encoder.encode(`{"type":${JSON.stringify(type)},"object":`);
    eventHeads.set(type, head);
  }
  const body = encodedOnce(object, codec, () => codec.encode(object, { flavor }));
  const out = new Uint8Array(head.length + body.length + eventEnd.length);
  out.set(head, 0);
  out.set(body, head.length);
  out.set(eventEnd, head.length + body.length);
  return out;
}
