/**
 * The suffixes of quantities (DecimalSI `n`…`E`, BinarySI `Ki`…`Ei`, DecimalExponent `e3`): reading one
 * while parsing, and choosing one for the canonical string form.
 */
import type { QuantityFormat } from './quantity.js';
import { fitsInt64, removeFactors } from './quantity-amount.js';

const decimalSuffixes: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalSuffixByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
export const binarySuffixByExponent = new Map(Object.entries(binarySuffixes).map(([s, e]) => [e, s]));

export interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

export function interpretSuffix(s: string): Suffix | undefined {
  if (Object.hasOwn(decimalSuffixes, s))
    return { base: 10, exponent: decimalSuffixes[s] as number, format: 'DecimalSI' };
  if (Object.hasOwn(binarySuffixes, s))
    return { base: 2, exponent: binarySuffixes[s] as number, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const v = BigInt(s.slice(1));
    if (!fitsInt64(v)) return undefined;
    // Upstream narrows the exponent to int32.
    return { base: 10, exponent: Number(BigInt.asIntN(32, v)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Mantissa and exponent (a multiple of 3) of the canonical decimal form. */
export function canonicalDecimal(unscaled: bigint, scale: number): [bigint, number] {
  let [m, times] = removeFactors(unscaled, 10n);
  let e = scale + times;
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  return [m, e];
}

export function decimalSuffix(e: number, format: QuantityFormat): string {
  if (format === 'DecimalSI') {
    const s = decimalSuffixByExponent.get(e);
    // Beyond `E` (or below `n`) DecimalSI has no suffix: use the exponent form rather than drop the
    // magnitude (the fix upstream made in kubernetes/kubernetes#140459).
    if (s !== undefined) return s;
  }
  return e === 0 ? '' : `e${e}`;
}
