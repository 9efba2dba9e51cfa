/**
 * CBOR (RFC 8949) for API objects, as upstream serves it (spec doc 1 §4.3, gate
 * `CBORServingAndStorage`, enforced by the server): one data item prefixed with the
 * self-described CBOR tag (`d9 d9 f7`); watches as `application/cbor-seq`, one item per event.
 * Values are the JSON form: text strings, numbers, booleans, null, arrays, string-keyed maps.
 * Encoding and value construction are cbor-x; `scanCborItem` checks every body first.
 */
import type { WatchEvent } from '@orchard/meta';
import { setOwn } from '@orchard/meta/internal';
import { Decoder, Encoder } from 'cbor-x';
import { type ByteChunks, type ChunkPool, packSection } from '../chunks.js';
import { CodecError, type ListSection } from '../codec.js';
import { WireDecodeError } from '../protobuf/errors.js';
import { toBase64 } from '../protobuf/wire-values.js';
import { CborScanError, maxCborNestingDepth, scanCbor } from './scan.js';

/** The CBOR media type (behind the `CBORServingAndStorage` gate). */
export const cborMediaType = 'application/cbor';
/** The media type of CBOR watch streams (RFC 8742 sequences). */
export const cborSeqMediaType = 'application/cbor-seq';
/** The media type of a server-side apply patch in CBOR. */
export const applyPatchCborMediaType = 'application/apply-patch+cbor';

/** The self-described CBOR tag 55799 as it starts every body: `d9 d9 f7`. */
export const cborSelfDescribedTag: readonly number[] = Object.freeze([0xd9, 0xd9, 0xf7]);
const tagBytes = Uint8Array.from(cborSelfDescribedTag);

const encoder = new Encoder({
  useRecords: false,
  mapsAsObjects: true,
  variableMapSize: true,
  tagUint8Array: false,
});
const decoder = new Decoder({ useRecords: false, mapsAsObjects: true });
// cbor-x renames a `__proto__` key when it builds plain objects; items holding one (rare, but
// JSON allows it) are decoded into Maps and converted with own properties instead.
const mapDecoder = new Decoder({ useRecords: false, mapsAsObjects: false });

/**
 * How strict CBOR decoding is: the self-described tag, the nesting depth and the media type named in
 * errors.
 */
export interface CborDecodeOptions {
  /** Reject a body that does not start with the self-described tag (default false: the tag is optional on input). */
  readonly requireSelfDescribedTag?: boolean;
  /** Deepest nesting accepted (default `maxCborNestingDepth`, the request-body bound of 500). */
  readonly maxDepth?: number;
  /** The media type named in errors (default `application/cbor`). */
  readonly mediaType?: string;
}

/**
 * The JSON form of `value` for encoding: drops `undefined` object members (as JSON.stringify
 * does), turns `undefined` array entries into null, rejects non-finite numbers, functions,
 * symbols, bigints and nesting deeper than the limit. Copies only what changes.
 */
function jsonForm(value: unknown, depth: number): unknown {
  if (depth > maxCborNestingDepth)
    throw new CodecError('NotEncodable', cborMediaType, 'nesting too deep for CBOR');
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value))
        throw new CodecError('NotEncodable', cborMediaType, 'NaN and Infinity have no CBOR form here');
      return value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          const j = v === undefined ? null : jsonForm(v, depth + 1);
          if (j !== v && !out) out = value.slice(0, i);
          if (out) out.push(j);
        }
        return out ?? value;
      }
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return jsonForm((toJSON as () => unknown).call(value), depth);
      let out: Record<string, unknown> | undefined;
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = 0; i < entries.length; i++) {
        const [k, v] = entries[i] as [string, unknown];
        const j = v === undefined ? undefined : jsonForm(v, depth + 1);
        if ((j !== v || v === undefined) && !out) out = Object.fromEntries(entries.slice(0, i));
        if (out && j !== undefined) setOwn(out, k, j);
      }
      return out ?? value;
    }
    default:
      throw new CodecError('NotEncodable', cborMediaType, `a ${typeof value} has no CBOR form here`);
  }
}

/** Encodes one JSON-form value as a CBOR body: the self-described tag, then one data item. */
export function encodeCbor(value: unknown): Uint8Array {
  let item: Uint8Array;
  try {
    item = encoder.encode(jsonForm(value, 0));
  } catch (e) {
    if (e instanceof CodecError) throw e;
    throw new CodecError('NotEncodable', cborMediaType, `cannot encode as CBOR: ${(e as Error).message}`);
  }
  const out = new Uint8Array(3 + item.length);
  out.set(tagBytes, 0);
  out.set(item, 3);
  return out;
}

/** The CBOR head of an array of `n` items (major type 4). */
function arrayHead(n: number): number[] {
  if (n < 24) return [0x80 + n];
  if (n < 0x100) return [0x98, n];
  if (n < 0x10000) return [0x99, n >> 8, n & 0xff];
  return [0x9a, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/** Serialize once: the items section of a CBOR list, each item without its self-described tag. */
export function cborListSection(itemBodies: readonly Uint8Array[], pool?: ChunkPool): ListSection {
  return packSection(
    itemBodies.map((b) => (hasTag(b) ? b.subarray(3) : b)),
    itemBodies.length,
    pool,
  );
}

/**
 * Serialize once: a list body from `list` (holding `items: []`, its last member) and its items
 * section: the list encoded, its empty array head (`80`, the last byte) replaced by one for the
 * items, then the section, as chunks whose concatenation is byte for byte what `encodeCbor` of the
 * whole list gives.
 */
export function joinCborList(list: unknown, section: ListSection): ByteChunks {
  const head = encodeCbor(list);
  if (head[head.length - 1] !== 0x80)
    throw new CodecError('NotEncodable', cborMediaType, 'a joined list must end with its empty items');
  return [head.subarray(0, head.length - 1), Uint8Array.from(arrayHead(section.count)), ...section.chunks];
}

/** cbor-x gives byte strings as Uint8Array and big integers as bigint; the JSON form has neither. */
function fromDecoded(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? Number(v) : v;
  if (v instanceof Uint8Array) return toBase64(v);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, item] of v) setOwn(o, k, fromDecoded(item));
    return o;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = fromDecoded(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) o[k] = fromDecoded(o[k]);
  return o;
}

function scanFailure(e: unknown, mediaType: string): WireDecodeError {
  if (e instanceof CborScanError) return new WireDecodeError(e.failure, mediaType, e.message);
  return new WireDecodeError(
    'Malformed',
    mediaType,
    `invalid CBOR: ${e instanceof Error ? e.message : String(e)}`,
  );
}

function hasTag(bytes: Uint8Array, at = 0): boolean {
  return bytes[at] === 0xd9 && bytes[at + 1] === 0xd9 && bytes[at + 2] === 0xf7;
}

function decodeItem(bytes: Uint8Array, mediaType: string, protoKey: boolean): unknown {
  try {
    return fromDecoded((protoKey ? mapDecoder : decoder).decode(bytes));
  } catch (e) {
    throw scanFailure(e, mediaType);
  }
}

/**
 * Decodes a CBOR body holding exactly one data item into its JSON form. Byte strings become
 * base64 text (the JSON form of `[]byte`). Throws `WireDecodeError`: `BadPrefix` (tag required
 * and absent), `Truncated`, or `Malformed` (trailing data, duplicate keys, non-string keys,
 * invalid UTF-8, undefined, NaN, unsupported tags, nesting too deep).
 */
export function decodeCbor(bytes: Uint8Array, options: CborDecodeOptions = {}): unknown {
  const mediaType = options.mediaType ?? cborMediaType;
  if (options.requireSelfDescribedTag && !hasTag(bytes))
    throw new WireDecodeError(
      'BadPrefix',
      mediaType,
      'the body does not start with the self-described CBOR tag d9 d9 f7',
    );
  if (bytes.length === 0) throw new WireDecodeError('Truncated', mediaType, 'empty CBOR body');
  let scan: { end: number; protoKey: boolean };
  try {
    scan = scanCbor(bytes, 0, options.maxDepth ?? maxCborNestingDepth);
  } catch (e) {
    throw scanFailure(e, mediaType);
  }
  if (scan.end !== bytes.length)
    throw new WireDecodeError('Malformed', mediaType, 'trailing bytes after the CBOR data item');
  return decodeItem(bytes, mediaType, scan.protoKey);
}

/** One watch event as one `application/cbor-seq` item (tag + `{type, object}`). */
export function encodeCborWatchEvent(event: WatchEvent | { type: string; object: unknown }): Uint8Array {
  return encodeCbor({ type: event.type, object: event.object });
}

/**
 * Splits an `application/cbor-seq` stream into items. Feed chunks as they arrive; `push`
 * returns the decoded items completed so far. A malformed item throws `WireDecodeError`;
 * a partial item waits for more bytes, up to `maxItemBytes`.
 */
export class CborSeqReader {
  private buf: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxItemBytes = 16 * 1024 * 1024) {}

  push(chunk: Uint8Array): unknown[] {
    const joined = new Uint8Array(this.buf.length + chunk.length);
    joined.set(this.buf, 0);
    joined.set(chunk, this.buf.length);
    const items: unknown[] = [];
    let at = 0;
    while (at < joined.length) {
      let scan: { end: number; protoKey: boolean };
      try {
        scan = scanCbor(joined, at);
      } catch (e) {
        if (e instanceof CborScanError && e.failure === 'Truncated') {
          if (joined.length - at > this.maxItemBytes)
            throw new WireDecodeError(
              'Malformed',
              cborSeqMediaType,
              'a CBOR sequence item exceeds the size limit',
            );
          break;
        }
        throw scanFailure(e, cborSeqMediaType);
      }
      items.push(decodeItem(joined.subarray(at, scan.end), cborSeqMediaType, scan.protoKey));
      at = scan.end;
    }
    this.buf = joined.slice(at);
    return items;
  }

  /** Bytes of an incomplete item (non-zero at end of stream = truncated). */
  get pending(): number {
    return this.buf.length;
  }
}
