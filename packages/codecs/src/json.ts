import { type Codec, CodecError } from './codec.js';
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
  stream: Object.freeze({
    mediaType: mediaTypes.json,
    /** One event per line (newline-delimited JSON), as kubectl and client libraries read it. */
    encodeEvent(event: { type: string; object: unknown }): Uint8Array {
      return encoder.encode(`${JSON.stringify(event)}\n`);
    },
  }),
});
