import type { Flavor, GroupVersionKind } from '@orchard/meta';
import { hasBrand } from '@orchard/meta/internal';
import type { ByteChunks, ChunkPool } from './chunks.js';

/**
 * A wire encoding of API objects (JSON, YAML, Protobuf, CBOR …). The server keeps a list of codecs;
 * request bodies are decoded by the codec whose media type matches `Content-Type`, responses are
 * encoded by the one content negotiation picks. Codecs are pure: bytes in, plain JSON-form values out.
 */
export interface Codec {
  /** The media type this codec reads and writes, without parameters: `application/json`. */
  readonly mediaType: string;
  /** Other `Content-Type` values it accepts for request bodies (`text/yaml`, `application/x-yaml`). */
  readonly aliases?: readonly string[];
  /** True when the encoding is not text (kubectl prints such bodies differently; gzip decisions). */
  readonly binary: boolean;
  /**
   * Decodes one request body into a plain JSON-form value.
   * Rejects with `CodecError` code `Malformed` when the bytes are not a valid document.
   */
  decode(body: Uint8Array, context: CodecContext): unknown;
  /**
   * Whether objects of this kind (and its list) have a form in this encoding. Absent = every kind
   * (JSON, YAML). The server offers the codec for a resource only where this holds; Protobuf
   * answers false for custom resources (spec doc 1 §2.5).
   */
  supports?(gvk: GroupVersionKind, context: CodecContext): boolean;
  /** Encodes one value (object, list, Status, Table …). */
  encode(value: unknown, context: CodecContext): Uint8Array;
  /**
   * Serialize once, step 1: the items section of a list (each item's `encode` bytes, kept by the
   * watch cache, framed as the list holds them), with `list` the list itself holding `items: []`.
   * It depends only on the items and the list's kind, so a caller may keep it and join it again
   * (small parts are copied into `context.chunkPool`'s buffers when given: keep only one built
   * without a pool). Present exactly when `joinList` is.
   */
  listSection?(list: unknown, items: readonly Uint8Array[], context: CodecContext): ListSection;
  /**
   * Serialize once, step 2: a list's bytes, its head and end around an items section, as chunks to
   * write in order (a large list is not copied into one buffer). Their concatenation is byte for
   * byte what `encode` of the whole list gives. Absent = the list is encoded whole.
   */
  joinList?(list: unknown, section: ListSection, context: CodecContext): ByteChunks;
  /**
   * Watch streams: the response `Content-Type` of a stream (`application/json` for JSON,
   * `application/cbor-seq` for CBOR) and the bytes of one framed event. Absent = cannot stream.
   */
  readonly stream?: {
    readonly mediaType: string;
    encodeEvent(event: { type: string; object: unknown }, context: CodecContext): Uint8Array;
  };
}

/** The items of a list as its encoding frames them (see `Codec.listSection`). */
export interface ListSection {
  /** How many items it holds. */
  readonly count: number;
  /** Its bytes, in order. */
  readonly chunks: ByteChunks;
  /** The total length of `chunks`. */
  readonly length: number;
}

/** What a codec may need beyond the bytes: the flavor (protobuf media type, group names). */
export interface CodecContext {
  readonly flavor: Flavor;
  /** Where `listSection` copies small parts (the server's; released once the response is written). */
  readonly chunkPool?: ChunkPool;
}

/** Why a codec failed: malformed input, an unsupported type, or a value it cannot encode. */
export type CodecErrorCode = 'Malformed' | 'Unsupported' | 'NotEncodable';

/** What codecs reject with. The server maps `Malformed` to 400, `Unsupported` to 415, `NotEncodable` to 406. */
export class CodecError extends Error {
  readonly orchardCodecError = true as const;
  readonly code: CodecErrorCode;
  /** The media type involved. */
  readonly mediaType: string;

  constructor(code: CodecErrorCode, mediaType: string, message: string) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
    this.mediaType = mediaType;
  }
}

/** Whether `e` is a `CodecError` (of `code`, when given); works across copies of this package. */
export function isCodecError(e: unknown, code?: CodecErrorCode): e is CodecError {
  return hasBrand(e, 'orchardCodecError') && (code === undefined || (e as CodecError).code === code);
}
