/**
 * Timestamps as the API serializes them: `metav1.Time` is RFC 3339 in UTC with second precision
 * (`2024-05-01T12:00:00Z`); `metav1.MicroTime` (Lease renewTime, events.k8s.io eventTime) has exactly
 * six fractional digits (`2024-05-01T12:00:00.123456Z`). Parsing is Go's `time.Parse(time.RFC3339, …)`,
 * which both types' `UnmarshalJSON` call: the same verdict, instant and error text (see
 * `parseRfc3339Parts`). The one parser and formatter of the tree: codecs (Protobuf `Time`/`MicroTime`),
 * the server's decoding checks and canonical forms all use these.
 */

import { hasBrand } from './brand.js';
import { goQuote } from './go-quote.js';

/** Go's layout string, quoted in parse errors. */
export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function check(d: Date): void {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) throw new RangeError('Time.MarshalJSON: year outside of range [0,9999]');
}

function dateTime(d: Date): string {
  // For the years check() lets through (0–9999) toISOString is `YYYY-MM-DDTHH:mm:ss.sssZ`: the native
  // formatter, several times faster than padding each field (this runs on every create).
  return d.toISOString().slice(0, 19);
}

/** RFC 3339, UTC, whole seconds (fractions truncated): the wire form of `metav1.Time`. */
export function formatRfc3339(d: Date): string {
  check(d);
  return `${dateTime(d)}Z`;
}

/**
 * Unix `seconds` + `nanos` as `metav1.Time` (`precision: 'seconds'`, fractions dropped) or
 * `metav1.MicroTime` (`'micros'`, six digits, nanoseconds truncated): the JSON form of a Protobuf
 * `Timestamp`.
 */
export function formatRfc3339Parts(
  parts: { seconds: number; nanos: number },
  precision: 'seconds' | 'micros',
): string {
  const { seconds, nanos } = parts;
  const d = new Date(seconds * 1000 + Math.floor(nanos / 1e6));
  if (precision === 'seconds') return formatRfc3339(d);
  return formatMicroTime(d, Math.floor(nanos / 1000) % 1000);
}

let lastSecond = Number.NaN;
let lastSecondText = '';

/**
 * The current time as `metav1.Time` (or `now` formatted). Without an argument the text is kept for
 * the current second (every create stamps it, often several times a request).
 */
export function nowRfc3339(now?: Date): string {
  if (now !== undefined) return formatRfc3339(now);
  const ms = Date.now();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecondText = formatRfc3339(new Date(ms));
    lastSecond = second;
  }
  return lastSecondText;
}

/**
 * RFC 3339, UTC, six fractional digits: the wire form of `metav1.MicroTime`. `micros` (0–999) adds
 * the microseconds a `Date` cannot hold.
 */
export function formatMicroTime(d: Date, micros = 0): string {
  check(d);
  if (!Number.isInteger(micros) || micros < 0 || micros > 999)
    throw new RangeError('micros must be an integer in [0, 999]');
  return `${dateTime(d)}.${pad(d.getUTCMilliseconds() * 1000 + micros, 6)}Z`;
}

/** The current time as `metav1.MicroTime`, with microseconds from the high-resolution clock. */
export function nowMicroTime(): string {
  const perf = globalThis.performance;
  if (perf && typeof perf.now === 'function' && typeof perf.timeOrigin === 'number') {
    const us = Math.floor((perf.timeOrigin + perf.now()) * 1000);
    return formatMicroTime(new Date(Math.floor(us / 1000)), us % 1000);
  }
  return formatMicroTime(new Date());
}

/** A timestamp string that is not RFC 3339; the message is Go's `time.ParseError` text. */
export class TimeParseError extends Error {
  readonly orchardTimeParseError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'TimeParseError';
  }
}

/** Recognises a TimeParseError without relying on `instanceof` across copies. */
export function isTimeParseError(e: unknown): e is TimeParseError {
  return hasBrand(e, 'orchardTimeParseError');
}

/** The parts of an RFC 3339 timestamp; `nanos` keeps the full fraction (up to 9 digits). */
export interface Rfc3339Parts {
  /** The instant, at millisecond precision. */
  date: Date;
  /** Whole Unix seconds of the instant (floor). */
  seconds: number;
  /** Nanoseconds within the second (0–999 999 999). */
  nanos: number;
  /** The offset written in the value, in seconds east of UTC (0 for `Z`). */
  offsetSeconds: number;
}

const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/** Go's `getnum`: one or two leading digits (exactly two when `fixed`); undefined when none. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  const d0 = s.charCodeAt(0) - 48;
  if (!isDigit(s, 1)) return fixed ? undefined : [d0, s.slice(1)];
  return [d0 * 10 + s.charCodeAt(1) - 48, s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Parses RFC 3339 as Go's `time.Parse(time.RFC3339, value)` does (the layout parser behind its fast
 * path, which accepts a superset with the same instants), keeping the sub-millisecond fraction.
 * Accepts what upstream accepts, including its laxer corners: a one-digit hour (`T5:04:05Z`), a comma
 * before the fraction, more than nine fraction digits (truncated), offsets up to `±24:60`. Rejects what
 * it rejects: a space or lower-case `t` separator, a lower-case `z`, a day past the month's end
 * (`02-29` outside leap years, `04-31`), hour 24, minute or second 60, a missing offset, extra text.
 * Element by element like Go, so a range error in one field wins over a syntax error after it, and the
 * day is checked last. Throws `TimeParseError` with Go's message.
 */
export function parseRfc3339Parts(value: string): Rfc3339Parts {
  const cannot = (valueElem: string, layoutElem: string) =>
    new TimeParseError(
      `parsing time ${goQuote(value)} as ${goQuote(rfc3339Layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
    );
  const outOfRange = (what: string) =>
    new TimeParseError(`parsing time ${goQuote(value)}: ${what} out of range`);
  let v = value;
  const skip = (literal: string) => {
    if (v[0] !== literal) throw cannot(v, literal);
    v = v.slice(1);
  };
  const num = (fixed: boolean, layoutElem: string): number => {
    const r = getnum(v, fixed);
    if (!r) throw cannot(v, layoutElem);
    v = r[1];
    return r[0];
  };

  if (v.length < 4 || !isDigit(v, 0) || !isDigit(v, 1) || !isDigit(v, 2) || !isDigit(v, 3)) {
    throw cannot(v, '2006');
  }
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  skip('-');
  const month = num(true, '01');
  if (month < 1 || month > 12) throw outOfRange('month');
  skip('-');
  // Any two digits here: the day is checked against the month after the whole value is read.
  const day = num(true, '02');
  skip('T');
  const hour = num(false, '15');
  if (hour >= 24) throw outOfRange('hour');
  skip(':');
  const minute = num(true, '04');
  if (minute >= 60) throw outOfRange('minute');
  skip(':');
  const second = num(true, '05');
  if (second >= 60) throw outOfRange('second');
  let nanos = 0;
  if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
    let n = 2;
    while (n < v.length && isDigit(v, n)) n++;
    // Digits past the ninth are read and ignored (truncated, not rounded).
    const digits = v.slice(1, Math.min(n, 10));
    nanos = Number(digits) * 10 ** (9 - digits.length);
    v = v.slice(n);
  }
  let offsetSeconds = 0;
  if (v[0] === 'Z') {
    v = v.slice(1);
  } else {
    const hold = v;
    if (v.length < 6 || v[3] !== ':') throw cannot(hold, 'Z07:00');
    const sign = v[0];
    const hh = getnum(v.slice(1, 3), true);
    const mm = hh ? getnum(v.slice(4, 6), true) : undefined;
    v = v.slice(6);
    const oh = hh?.[0] ?? 0;
    const om = mm?.[0] ?? 0;
    // Go tests with > rather than >=: "some people do write offsets of 24 hours or 60 minutes".
    if (om > 60) throw outOfRange('time zone offset minute');
    if (oh > 24) throw outOfRange('time zone offset hour');
    if (!hh || !mm || (sign !== '+' && sign !== '-')) throw cannot(hold, 'Z07:00');
    offsetSeconds = (sign === '-' ? -1 : 1) * (oh * 60 + om) * 60;
  }
  if (v.length > 0) throw new TimeParseError(`parsing time ${goQuote(value)}: extra text: ${goQuote(v)}`);
  if (day < 1 || day > daysIn(month, year)) throw outOfRange('day');

  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  const seconds = wall.getTime() / 1000 - offsetSeconds;
  return { date: new Date(seconds * 1000 + Math.floor(nanos / 1e6)), seconds, nanos, offsetSeconds };
}

/** Parses RFC 3339 (Go's `time.Parse(time.RFC3339, …)`) to a `Date` (millisecond precision). */
export function parseRfc3339(s: string): Date {
  return parseRfc3339Parts(s).date;
}

/** Whether `s` is a timestamp Go's `time.Parse(time.RFC3339, …)` accepts. */
export function isRfc3339(s: string): boolean {
  try {
    parseRfc3339Parts(s);
    return true;
  } catch (e) {
    if (isTimeParseError(e)) return false;
    throw e;
  }
}
