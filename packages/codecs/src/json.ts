import { type ByteChunks, type ChunkPool, packChunks } from './chunks.js';
import { type Codec, type CodecContext, CodecError } from './codec.js';
import { mediaTypes } from './media-type.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 text, rejecting invalid byte sequences as `Malformed`. */
export function decodeUtf8(body: Uint8Array, mediaType: string): string {
  try {
    return decoder.decode(body);
  } catch {
    throw new CodecError('Malformed', mediaType, 'the request body is not valid UTF-8');
  }
}

/**
 * Parses JSON text. Errors carry the position the way upstream's decoder reports them, so users
 * see where the body broke.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new CodecError('Malformed', mediaTypes.json, `couldn't get version/kind; json parse error: ${msg}`);
  }
}

const comma = encoder.encode(',');
const listEnd = encoder.encode(']}');

/**
 * A JSON list from its items' bytes: `list` (holding `items: []`, its last member) encoded, its
 * closing `[]}` cut, then the items joined by commas: what `JSON.stringify` of the whole list gives,
 * as chunks (see `packChunks`).
 */
function joinJsonList(list: unknown, items: readonly Uint8Array[], pool?: ChunkPool): ByteChunks {
  const head = encoder.encode(JSON.stringify(list));
  // `…"items":[]}`: keep through `[`.
  if (head.length < 3 || head[head.length - 3] !== 0x5b || head[head.length - 2] !== 0x5d)
    throw new CodecError('NotEncodable', mediaTypes.json, 'a joined list must end with its empty items');
  const parts: Uint8Array[] = [head.subarray(0, head.length - 2)];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(comma);
    parts.push(items[i] as Uint8Array);
  }
  parts.push(listEnd);
  return packChunks(parts, pool);
}

/** `application/json`: the default encoding of every request and response. */
export const jsonCodec: Codec = Object.freeze({
  mediaType: mediaTypes.json,
  binary: false,
  decode(body: Uint8Array): unknown {
    return parseJson(decodeUtf8(body, mediaTypes.json));
  },
  encode(value: unknown): Uint8Array {
    return encoder.encode(JSON.stringify(value));
  },
  joinList(list: unknown, items: readonly Uint8Array[], context?: CodecContext): ByteChunks {
    return joinJsonList(list, items, context?.chunkPool);
  },
  stream: Object.freeze({
    mediaType: mediaTypes.json,
    /** One event per line (newline-delimited JSON), as kubectl and client libraries read it. */
    encodeEvent(event: { type: string; object: unknown }): Uint8Array {
      return encoder.encode(`${JSON.stringify(event)}\n`);
    },
  }),
});
