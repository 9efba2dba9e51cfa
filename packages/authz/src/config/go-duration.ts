/**
 * Go's `time.Duration` text, as AuthorizationConfiguration's durations are written and as upstream's
 * field errors print them (`1m0s`, `45s`, `1.5s`, `500ms`).
 */
import { isDurationParseError, parseGoDuration } from '@orchard/meta/internal';

const nsPerMs = 1_000_000n;

/** Go's `Duration.String()` of `ns` nanoseconds. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  if (ns < 0n) return `-${formatGoDuration(-ns)}`;
  const frac = (n: bigint, unit: bigint): string => {
    const whole = n / unit;
    const rest = n % unit;
    if (rest === 0n) return String(whole);
    const digits = String(unit).length - 1;
    return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (ns < 1000n) return `${ns}ns`;
  if (ns < nsPerMs) return `${frac(ns, 1000n)}µs`;
  if (ns < 1000n * nsPerMs) return `${frac(ns, nsPerMs)}ms`;
  const totalSeconds = ns / 1_000_000_000n;
  const h = totalSeconds / 3600n;
  const m = (totalSeconds % 3600n) / 60n;
  const s = frac(ns % 60_000_000_000n, 1_000_000_000n);
  if (h > 0n) return `${h}h${m}m${s}s`;
  if (m > 0n) return `${m}m${s}s`;
  return `${s}s`;
}

/** A Go duration string as milliseconds, or the parse error's message. */
export function parseDurationMs(text: string): { ms: number; ns: bigint } | { error: string } {
  try {
    const ns = parseGoDuration(text);
    return { ms: Number(ns / nsPerMs), ns };
  } catch (e) {
    if (isDurationParseError(e)) return { error: e.message };
    throw e;
  }
}
