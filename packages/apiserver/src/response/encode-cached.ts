import type { ByteChunks, ChunkPool, Codec } from '@orchard/codecs';
import type { Flavor } from '@orchard/meta';
import { encodedOnce } from '@orchard/watch-cache';

/**
 * Serialize once (issue 18): the bytes of a watch-cache object, or of a list of them, with `codec`.
 * An object's bytes are built on its first read and kept beside it by the watch cache; a list is
 * its header and footer around its items' kept bytes when the codec can join them (JSON, Protobuf,
 * CBOR), as chunks (small parts copied into `chunkPool`'s buffers), else encoded whole. Byte for
 * byte what `codec.encode` gives.
 */
export function encodeCached(
  codec: Codec,
  value: unknown,
  shape: 'object' | 'list',
  flavor: Flavor,
  chunkPool?: ChunkPool,
): Uint8Array | ByteChunks {
  const context = chunkPool ? { flavor, chunkPool } : { flavor };
  if (typeof value !== 'object' || value === null) return codec.encode(value, context);
  if (shape === 'object') return encodedOnce(value, codec, () => codec.encode(value, context));
  const items = (value as { items?: unknown }).items;
  if (!codec.joinList || !Array.isArray(items)) return codec.encode(value, context);
  const bodies = items.map((item: object) => encodedOnce(item, codec, () => codec.encode(item, context)));
  return codec.joinList({ ...value, items: [] }, bodies, context);
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
