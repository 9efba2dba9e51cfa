/**
 * The JSON forms of the special apimachinery messages: `Time`/`MicroTime` (RFC 3339 strings),
 * bytes (base64), int64 values. Pure string and number handling, no Node built-ins.
 */

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp into Unix seconds and nanoseconds; undefined when invalid. */
export function parseRfc3339(s: string): { seconds: number; nanos: number } | undefined {
  const m = rfc3339.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, se, frac, zone] = m as unknown as string[];
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(se);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  let offset = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offset = sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
  }
  const ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  const seconds = Math.floor(ms / 1000) - offset;
  const nanos = frac ? Number(frac.slice(1).padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * Formats Unix seconds (+ nanoseconds) as RFC 3339 in UTC: `2006-01-02T15:04:05Z` for `Time`
 * (second precision, as upstream serializes it), with `.000000` microseconds for `MicroTime`.
 */
export function formatRfc3339(seconds: number, nanos: number, micro: boolean): string {
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear();
  const base = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  if (!micro) return `${base}Z`;
  return `${base}.${pad(Math.floor(nanos / 1000), 6)}Z`;
}

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
