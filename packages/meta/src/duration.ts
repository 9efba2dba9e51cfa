import { hasBrand } from './brand.js';
import { goQuote } from './go-quote.js';

/** A duration string Go's `time.ParseDuration` refuses; the message is Go's. */
export class DurationParseError extends Error {
  readonly orchardDurationParseError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'DurationParseError';
  }
}

/** Recognises a DurationParseError without relying on `instanceof` across copies. */
export function isDurationParseError(e: unknown): e is DurationParseError {
  return hasBrand(e, 'orchardDurationParseError');
}

const units: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const limit = 1n << 63n;

const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/**
 * Parses a duration as Go's `time.ParseDuration` does (flags such as `--shutdown-delay-duration`, the
 * `?timeout=` parameter, CEL's `duration()`): an optional sign, then one or more decimal numbers, each
 * with a unit `ns`, `us`/`µs`, `ms`, `s`, `m`, `h` (`300ms`, `-1.5h`, `2h45m`, `.5s`); a bare `0` is
 * zero. Returns nanoseconds; throws `DurationParseError` with Go's message (`time: invalid duration
 * "x"`, `time: missing unit in duration "5"`, `time: unknown unit "d" in duration "1d"`), also beyond
 * the int64 range (about ±292 years).
 */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new DurationParseError(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s, 0))) throw invalid();
    // The integer part: more digits than int64 holds is an error.
    let i = 0;
    let v = 0n;
    for (; i < s.length && isDigit(s, i); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > limit) throw invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // The fraction: digits past what int64 holds are read and ignored.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s, j); j++) {
        if (overflow) continue;
        if (f > (limit - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > limit) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s, u)) u++;
    if (u === 0) throw new DurationParseError(`time: missing unit in duration ${goQuote(text)}`);
    const name = s.slice(0, u);
    s = s.slice(u);
    const unit = Object.hasOwn(units, name) ? units[name] : undefined;
    if (unit === undefined) {
      throw new DurationParseError(`time: unknown unit ${goQuote(name)} in duration ${goQuote(text)}`);
    }
    if (v > limit / unit) throw invalid();
    v *= unit;
    // Go computes the fraction in float64 (exact to the nanosecond for every unit up to hours).
    if (f > 0n) v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
    if (v > limit) throw invalid();
    total += v;
    if (total > limit) throw invalid();
  }
  if (neg) return -total;
  if (total > limit - 1n) throw invalid();
  return total;
}

/** Go's `Duration.String()` of `ns` nanoseconds (`1m0s`, `45s`, `1.5s`, `500ms`), as upstream's messages print durations. */
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
  if (ns < 1_000_000n) return `${frac(ns, 1000n)}µs`;
  if (ns < 1000n * 1_000_000n) return `${frac(ns, 1_000_000n)}ms`;
  const totalSeconds = ns / 1_000_000_000n;
  const h = totalSeconds / 3600n;
  const m = (totalSeconds % 3600n) / 60n;
  const s = frac(ns % 60_000_000_000n, 1_000_000_000n);
  if (h > 0n) return `${h}h${m}m${s}s`;
  if (m > 0n) return `${m}m${s}s`;
  return `${s}s`;
}
