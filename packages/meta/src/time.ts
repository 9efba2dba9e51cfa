/**
 * Timestamps as the API serializes them: `metav1.Time` is RFC 3339 in UTC with second precision
 * (`2024-05-01T12:00:00Z`); `metav1.MicroTime` (Lease renewTime, events.k8s.io eventTime) has exactly
 * six fractional digits (`2024-05-01T12:00:00.123456Z`). Parsing accepts any RFC 3339 offset and
 * fraction, as Go's `time.Parse(time.RFC3339, …)` does.
 */

/** Go's layout string, quoted in parse errors. */
export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function check(d: Date): void {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) throw new RangeError('Time.MarshalJSON: year outside of range [0,9999]');
}

function dateTime(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(
    d.getUTCHours(),
    2,
  )}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

/** RFC 3339, UTC, whole seconds (fractions truncated): the wire form of `metav1.Time`. */
export function formatRfc3339(d: Date): string {
  check(d);
  return `${dateTime(d)}Z`;
}

/** The current time as `metav1.Time`. */
export function nowRfc3339(now: Date = new Date()): string {
  return formatRfc3339(now);
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

/** A timestamp string that is not RFC 3339. */
export class TimeParseError extends Error {
  readonly orchardTimeParseError = true as const;
  constructor(value: string, why: string) {
    super(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(rfc3339Layout)}: ${why}`);
    this.name = 'TimeParseError';
  }
}

export function isTimeParseError(e: unknown): e is TimeParseError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { orchardTimeParseError?: unknown }).orchardTimeParseError === true
  );
}

const rfc3339Re =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** The parts of an RFC 3339 timestamp; `nanos` keeps the full fraction (up to 9 digits). */
export interface Rfc3339Parts {
  /** The instant, at millisecond precision. */
  date: Date;
  /** Nanoseconds within the second (0–999 999 999). */
  nanos: number;
}

/** Parses RFC 3339 keeping the sub-millisecond fraction. Throws `TimeParseError`. */
export function parseRfc3339Parts(s: string): Rfc3339Parts {
  const m = rfc3339Re.exec(s);
  if (!m) throw new TimeParseError(s, 'cannot parse as RFC 3339');
  const [, ys, mos, ds, hs, mis, ss, frac, z, sign, ohs, oms] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  const h = Number(hs);
  const mi = Number(mis);
  const sec = Number(ss);
  if (mo < 1 || mo > 12) throw new TimeParseError(s, 'month out of range');
  const daysIn = new Date(Date.UTC(2000, mo, 0)).getUTCDate();
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d < 1 || d > (mo === 2 ? (leap ? 29 : 28) : daysIn)) throw new TimeParseError(s, 'day out of range');
  if (h > 23) throw new TimeParseError(s, 'hour out of range');
  if (mi > 59) throw new TimeParseError(s, 'minute out of range');
  if (sec > 59) throw new TimeParseError(s, 'second out of range');
  let offsetMin = 0;
  if (!z) {
    const oh = Number(ohs);
    const om = Number(oms);
    if (oh > 23 || om > 59) throw new TimeParseError(s, 'time zone offset out of range');
    offsetMin = (sign === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const nanos = frac ? Number(frac.padEnd(9, '0')) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, sec, Math.floor(nanos / 1e6));
  return { date: new Date(utc.getTime() - offsetMin * 60_000), nanos };
}

/** Parses RFC 3339 (any offset, optional fraction) to a `Date` (millisecond precision). */
export function parseRfc3339(s: string): Date {
  return parseRfc3339Parts(s).date;
}

/** Whether `s` is a valid RFC 3339 timestamp. */
export function isRfc3339(s: string): boolean {
  try {
    parseRfc3339Parts(s);
    return true;
  } catch (e) {
    if (isTimeParseError(e)) return false;
    throw e;
  }
}
