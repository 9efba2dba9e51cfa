import { type ByteChunks, type ChunkPool, packSection } from './chunks.js';
import { type Codec, type CodecContext, CodecError, type ListSection } from './codec.js';
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

/** The items section of a JSON list: the items' bytes joined by commas. */
function jsonListSection(items: readonly Uint8Array[], pool?: ChunkPool): ListSection {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(comma);
    parts.push(items[i] as Uint8Array);
  }
  return packSection(parts, items.length, pool);
}

/**
 * A JSON list around its items section: `list` (holding `items: []`, its last member) encoded, its
 * closing `[]}` cut, the section, then `]}`: what `JSON.stringify` of the whole list gives.
 */
function joinJsonList(list: unknown, section: ListSection): ByteChunks {
  const head = encoder.encode(JSON.stringify(list));
  // `…"items":[]}`: keep through `[`.
  if (head.length < 3 || head[head.length - 3] !== 0x5b || head[head.length - 2] !== 0x5d)
    throw new CodecError('NotEncodable', mediaTypes.json, 'a joined list must end with its empty items');
  return [head.subarray(0, head.length - 2), ...section.chunks, listEnd];
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
  listSection(_list: unknown, items: readonly Uint8Array[], context?: CodecContext): ListSection {
    return jsonListSection(items, context?.chunkPool);
  },
  joinList(list: unknown, section: ListSection): ByteChunks {
    return joinJsonList(list, section);
  },
  stream: Object.freeze({
    mediaType: mediaTypes.json,
    /** One event per line (newline-delimited JSON), as kubectl and client libraries read it. */
    encodeEvent(event: { type: string; object: unknown }): Uint8Array {
      return encoder.encode(`${JSON.stringify(event)}\n`);
    },
  }),
});
