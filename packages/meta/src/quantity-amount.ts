/**
 * The exact arithmetic under `Quantity`: an amount is `unscaled * 10^scale` over BigInt, flagged as
 * upstream's int64 or arbitrary-precision representation, with Go's int64 overflow and rounding rules.
 */
import { QuantityError } from './quantity-error.js';

export const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
export const fitsInt64 = (v: bigint) => v >= int64Min && v <= int64Max;
export const pow10 = (n: number) => 10n ** BigInt(n);
export const abs = (v: bigint) => (v < 0n ? -v : v);
/** Scale of nano, the finest precision a parsed quantity keeps. */
export const nanoScale = -9;
/**
 * Parsed values whose decimal magnitude would need more digits than this are rejected as `Numeric`,
 * so a request cannot make the server build a gigantic BigInt (upstream has no such bound).
 */
export const quantityMaxDigits = 4096;

/** Go's `%` keeps the dividend's sign; so does JS for numbers. Strips factors of `base`. */
export function removeFactors(v: bigint, base: bigint): [bigint, number] {
  let times = 0;
  if (v === 0n) return [v, 0];
  while (v % base === 0n) {
    v /= base;
    times++;
  }
  return [v, times];
}

/** Rounds `v * 10^-by` to an integer, away from zero (upstream's "round up"). */
export function divRoundAway(v: bigint, by: number): [bigint, boolean] {
  const d = pow10(by);
  const q = v / d;
  const r = v % d;
  if (r === 0n) return [q, true];
  return [v > 0n ? q + 1n : q - 1n, false];
}

/** Go's math.Pow10: table products, so results match upstream bit for bit. */
export function goPow10(n: number): number {
  if (n > 308) return Number.POSITIVE_INFINITY;
  if (n < -323) return 0;
  const m = Math.abs(n);
  const hi = 32 * Math.floor(m / 32);
  return n >= 0 ? Number(`1e${hi}`) * Number(`1e${m % 32}`) : Number(`1e-${hi}`) / Number(`1e${m % 32}`);
}

/** An exact `unscaled * 10^scale`; `dec` marks upstream's arbitrary-precision representation. */
export interface Amount {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly dec: boolean;
}

/** int64Amount.Add: undefined on overflow (the caller then adds exactly as decimals). */
export function addInt64(a: Amount, b: Amount): Amount | undefined {
  if (b.unscaled === 0n) return a;
  if (a.unscaled === 0n) return b;
  if (a.scale === b.scale) {
    const c = a.unscaled + b.unscaled;
    return fitsInt64(c) ? { unscaled: c, scale: a.scale, dec: false } : undefined;
  }
  if (a.scale > b.scale) {
    const s = a.unscaled * pow10(a.scale - b.scale);
    if (!fitsInt64(s)) return undefined;
    const c = s + b.unscaled;
    return fitsInt64(c) ? { unscaled: c, scale: b.scale, dec: false } : undefined;
  }
  const s = b.unscaled * pow10(b.scale - a.scale);
  if (!fitsInt64(s)) return undefined;
  const c = a.unscaled + s;
  return fitsInt64(c) ? { unscaled: c, scale: a.scale, dec: false } : undefined;
}

export function addDec(a: Amount, b: Amount): Amount {
  const s = Math.min(a.scale, b.scale);
  return { unscaled: a.unscaled * pow10(a.scale - s) + b.unscaled * pow10(b.scale - s), scale: s, dec: true };
}

export const digitCount = (v: bigint) => abs(v).toString().length;

export function cmpAmount(a: Amount, b: Amount): -1 | 0 | 1 {
  const sa = a.unscaled < 0n ? -1 : a.unscaled > 0n ? 1 : 0;
  const sb = b.unscaled < 0n ? -1 : b.unscaled > 0n ? 1 : 0;
  if (sa !== sb || sa === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  // Same sign: different orders of magnitude decide without aligning huge scales.
  const ma = digitCount(a.unscaled) + a.scale;
  const mb = digitCount(b.unscaled) + b.scale;
  if (ma !== mb) return ma > mb === sa > 0 ? 1 : -1;
  const s = Math.min(a.scale, b.scale);
  const x = a.unscaled * pow10(a.scale - s);
  const y = b.unscaled * pow10(b.scale - s);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Zero keeps no scale; a magnitude beyond `quantityMaxDigits` digits is refused. */
export function bounded(a: Amount): Amount {
  if (a.unscaled === 0n) return a.scale === 0 ? a : { ...a, scale: 0 };
  if (digitCount(a.unscaled) + a.scale > quantityMaxDigits) throw new QuantityError('Numeric');
  return a;
}
