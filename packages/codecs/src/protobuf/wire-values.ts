/**
 * The JSON forms of the special apimachinery messages: bytes (base64), int64 values. Pure string and
 * number handling, no Node built-ins. `Time`/`MicroTime` strings are @orchard/meta's RFC 3339
 * (`parseRfc3339Parts`, `formatRfc3339Parts`), the one parser the object model uses too.
 */

export { fromBase64, toBase64 } from '@orchard/meta/internal';

/** A protobufjs int64 value (number or Long) as a JS number. */
export function int64ToNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && v !== null && 'low' in v && 'high' in v) {
    const { low, high, unsigned } = v as { low: number; high: number; unsigned?: boolean };
    return unsigned ? (high >>> 0) * 4294967296 + (low >>> 0) : high * 4294967296 + (low >>> 0);
  }
  return Number(v);
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

export function utf8Decode(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

export function utf8Encode(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}
