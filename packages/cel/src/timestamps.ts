/**
 * Nanosecond timestamps, our layer over the engine (which represents a CEL timestamp as a
 * JavaScript `Date`, i.e. milliseconds; upstream-fix candidate listed in the README).
 *
 * A timestamp stays a `Date` — so the engine's type dispatch, the accessors and every caller that
 * passes or reads `Date`s keep working — and carries the nanoseconds below its millisecond in a
 * symbol-keyed property. `timestamp(string)` keeps up to nine fractional digits; `+`/`-` with
 * durations, the difference of two timestamps, comparisons, equality and `string()` use the
 * full precision (see `patches/timestamps.ts`).
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';

const subMs = Symbol.for('@orchard/cel.timestamp.subMillisecondNanos');

type NanoDate = Date & { [subMs]?: number };

const nsPerMs = 1_000_000n;
const nsPerS = 1_000_000_000n;

/** The nanoseconds of `d` below its millisecond (0 … 999,999). */
export function subMillisecondNanos(d: Date): number {
  return (d as NanoDate)[subMs] ?? 0;
}

/** Nanoseconds since the Unix epoch. */
export function timestampNanos(d: Date): bigint {
  return BigInt(d.getTime()) * nsPerMs + BigInt(subMillisecondNanos(d));
}

/** A timestamp (`Date`) from nanoseconds since the Unix epoch, keeping the sub-millisecond part. */
export function timestampFromNanos(ns: bigint): Date {
  let ms = ns / nsPerMs;
  if (ns % nsPerMs < 0n) ms -= 1n;
  const d = new Date(Number(ms)) as NanoDate;
  const sub = Number(ns - ms * nsPerMs);
  if (sub !== 0) d[subMs] = sub;
  return d;
}

/** Nanoseconds of a duration. */
export function durationNanos(d: Duration): bigint {
  return d.seconds * nsPerS + BigInt(d.nanos);
}

/** A duration from nanoseconds (seconds and nanos share the sign, as the engine's do). */
export function durationFromNanos(ns: bigint): Duration {
  return new Duration(ns / nsPerS, Number(ns % nsPerS));
}

const fraction = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}\.(\d+)(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Adds the sub-millisecond digits of an RFC 3339 string (`…:59.999999999Z`) to the `Date` the
 * engine parsed from it (which keeps milliseconds only).
 */
export function withFraction(d: Date, text: string): Date {
  const digits = fraction.exec(text)?.[1];
  if (digits === undefined || digits.length <= 3) return d;
  const sub = Number(digits.slice(3, 9).padEnd(6, '0'));
  if (sub === 0) return d;
  const out = new Date(d.getTime()) as NanoDate;
  out[subMs] = sub;
  return out;
}

/** RFC 3339 with as many fractional digits as needed (Go's `time.RFC3339Nano`, as cel-go prints). */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const frac = `${iso.slice(20, 23)}${String(subMillisecondNanos(d)).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 19)}${frac === '' ? '' : `.${frac}`}Z`;
}

/** Orders two timestamps at nanosecond precision. */
export function compareTimestamps(a: Date, b: Date): number {
  const d = a.getTime() - b.getTime();
  if (d !== 0) return d < 0 ? -1 : 1;
  const s = subMillisecondNanos(a) - subMillisecondNanos(b);
  return s < 0 ? -1 : s > 0 ? 1 : 0;
}
