/**
 * A well-formedness check of one CBOR data item (RFC 8949) that builds no values: it walks the
 * item, bounds every length by the bytes present, and enforces the subset the API accepts, so
 * that the decoder behind it only ever sees input it can turn into a JSON value:
 * - map keys are text strings, without duplicates;
 * - text strings are valid UTF-8;
 * - no `undefined`, no other simple values, no NaN or ±Infinity;
 * - the only tag is 55799 (self-described CBOR), which carries no meaning;
 * - nesting is at most `maxDepth` levels;
 * - strings have definite lengths (arrays and maps may be indefinite).
 * It returns the offset just past the item, or throws `CborScanError`.
 */
import { maxNestingDepth } from '@orchard/meta/internal';

/** How deep arrays, maps and tags may nest in one item (the JS decoder and encoder recurse): the one request-body bound. */
export const maxCborNestingDepth = maxNestingDepth;

export type CborScanFailure = 'Truncated' | 'Malformed';

export class CborScanError extends Error {
  constructor(
    readonly failure: CborScanFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CborScanError';
  }
}

const selfDescribedTag = 55799;
const utf8 = new TextDecoder('utf-8', { fatal: true });

class Scanner {
  pos: number;
  /** Whether a map key `__proto__` was seen (cbor-x mangles it into a plain object; see cbor.ts). */
  protoKey = false;
  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly maxDepth: number,
  ) {
    this.pos = start;
  }

  need(n: number): void {
    if (this.pos + n > this.bytes.length)
      throw new CborScanError('Truncated', 'the CBOR data ends inside an item');
  }

  /** The argument of the head whose additional information is `info` (RFC 8949 §3). */
  arg(info: number): number {
    if (info < 24) return info;
    const b = this.bytes;
    switch (info) {
      case 24:
        this.need(1);
        return b[this.pos++] as number;
      case 25:
        this.need(2);
        this.pos += 2;
        return ((b[this.pos - 2] as number) << 8) | (b[this.pos - 1] as number);
      case 26: {
        this.need(4);
        const v = new DataView(b.buffer, b.byteOffset + this.pos, 4).getUint32(0);
        this.pos += 4;
        return v;
      }
      case 27: {
        this.need(8);
        const dv = new DataView(b.buffer, b.byteOffset + this.pos, 8);
        this.pos += 8;
        // Beyond 2^53 the exact value does not matter: no length that large can be satisfied.
        return dv.getUint32(0) * 4294967296 + dv.getUint32(4);
      }
      default:
        throw new CborScanError('Malformed', `reserved additional information ${info}`);
    }
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  text(len: number): string {
    this.need(len);
    const s = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    try {
      return utf8.decode(s);
    } catch {
      throw new CborScanError('Malformed', 'a CBOR text string is not valid UTF-8');
    }
  }

  /** A string of major type 2 or 3; returns the text for type 3. */
  string(major: number, info: number): string {
    if (info !== 31) {
      const len = this.arg(info);
      if (major === 3) return this.text(len);
      this.need(len);
      this.pos += len;
      return '';
    }
    // cbor-x cannot build values from chunked strings; no encoder we know of writes them.
    throw new CborScanError('Malformed', 'indefinite-length CBOR strings are not supported');
  }

  item(depth: number): void {
    if (depth > this.maxDepth)
      throw new CborScanError('Malformed', `CBOR nesting deeper than ${this.maxDepth}`);
    this.need(1);
    const ib = this.bytes[this.pos++] as number;
    const major = ib >> 5;
    const info = ib & 31;
    switch (major) {
      case 0:
      case 1:
        if (info === 31) throw new CborScanError('Malformed', 'an integer cannot have indefinite length');
        this.arg(info);
        return;
      case 2:
      case 3:
        this.string(major, info);
        return;
      case 4:
        if (info === 31) {
          while (!this.isBreak()) this.item(depth + 1);
          return;
        }
        {
          const n = this.arg(info);
          if (n > this.remaining())
            throw new CborScanError('Truncated', 'the CBOR array is longer than the data');
          for (let i = 0; i < n; i++) this.item(depth + 1);
        }
        return;
      case 5: {
        const keys = new Set<string>();
        if (info === 31) {
          while (!this.isBreak()) this.entry(keys, depth);
          return;
        }
        const n = this.arg(info);
        if (n * 2 > this.remaining())
          throw new CborScanError('Truncated', 'the CBOR map is longer than the data');
        for (let i = 0; i < n; i++) this.entry(keys, depth);
        return;
      }
      case 6: {
        if (info === 31) throw new CborScanError('Malformed', 'a tag cannot have indefinite length');
        const tag = this.arg(info);
        if (tag !== selfDescribedTag) throw new CborScanError('Malformed', `unsupported CBOR tag ${tag}`);
        this.item(depth + 1);
        return;
      }
      default:
        this.simple(info);
    }
  }

  isBreak(): boolean {
    this.need(1);
    if (this.bytes[this.pos] === 0xff) {
      this.pos++;
      return true;
    }
    return false;
  }

  entry(keys: Set<string>, depth: number): void {
    this.need(1);
    const ib = this.bytes[this.pos++] as number;
    if (ib >> 5 !== 3) throw new CborScanError('Malformed', 'a CBOR map key is not a text string');
    const key = this.string(3, ib & 31);
    if (keys.has(key)) throw new CborScanError('Malformed', `duplicate map key ${JSON.stringify(key)}`);
    keys.add(key);
    if (key === '__proto__') this.protoKey = true;
    this.item(depth + 1);
  }

  simple(info: number): void {
    const b = this.bytes;
    switch (info) {
      case 20:
      case 21:
      case 22:
        return;
      case 23:
        throw new CborScanError('Malformed', 'CBOR undefined has no JSON form');
      case 25: {
        this.need(2);
        const exp = ((b[this.pos] as number) >> 2) & 0x1f;
        this.pos += 2;
        if (exp === 0x1f) throw new CborScanError('Malformed', 'NaN and Infinity have no JSON form');
        return;
      }
      case 26: {
        this.need(4);
        const v = new DataView(b.buffer, b.byteOffset + this.pos, 4).getFloat32(0);
        this.pos += 4;
        if (!Number.isFinite(v)) throw new CborScanError('Malformed', 'NaN and Infinity have no JSON form');
        return;
      }
      case 27: {
        this.need(8);
        const v = new DataView(b.buffer, b.byteOffset + this.pos, 8).getFloat64(0);
        this.pos += 8;
        if (!Number.isFinite(v)) throw new CborScanError('Malformed', 'NaN and Infinity have no JSON form');
        return;
      }
      case 31:
        throw new CborScanError('Malformed', 'unexpected CBOR break');
      default:
        throw new CborScanError('Malformed', `unsupported CBOR simple value ${info}`);
    }
  }
}

/** Checks one data item starting at `start`; returns the offset just past it. */
export function scanCborItem(bytes: Uint8Array, start = 0, maxDepth = maxCborNestingDepth): number {
  return scanCbor(bytes, start, maxDepth).end;
}

/** `scanCborItem`, also telling whether the item holds a `__proto__` map key. */
export function scanCbor(
  bytes: Uint8Array,
  start = 0,
  maxDepth = maxCborNestingDepth,
): { end: number; protoKey: boolean } {
  const s = new Scanner(bytes, start, maxDepth);
  s.item(0);
  return { end: s.pos, protoKey: s.protoKey };
}
