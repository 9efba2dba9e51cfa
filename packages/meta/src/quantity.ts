import { hasBrand } from './brand.js';
/**
 * `Quantity`: the fixed-point number of resource amounts (`500m`, `1.5Gi`, `1e3`), with upstream
 * `resource.Quantity`'s grammar, rounding, canonical form and integer semantics. No floats: a value is
 * an exact `unscaled * 10^scale` over BigInt.
 *
 *   quantity ::= signedNumber suffix
 *   number   ::= digits | digits '.' digits | digits '.' | '.' digits
 *   suffix   ::= binarySI (Ki Mi Gi Ti Pi Ei) | decimalSI (n u m "" k M G T P E) | ('e'|'E') signedNumber
 *
 * Parsing rounds the magnitude up to nano precision (`0.1n` → `1n`); BinarySI values are capped at
 * 2^63-1, and BinarySI values strictly between 0 and 1 switch to DecimalSI. The canonical string keeps
 * the input's suffix family, uses no fractional digits and the largest suffix that loses nothing
 * (`1.5` → `1500m`, `1024Mi` → `1Gi`, `1.5Gi` → `1536Mi`). As upstream, a string that is already
 * canonical-looking is kept verbatim (`+1`, `1E3`).
 *
 * Like upstream, a quantity remembers whether it is a small "int64" amount or an arbitrary decimal:
 * `isInteger`/`asInt64` succeed only for int64 amounts with a non-negative scale, so `1.0` (10×10^-1)
 * and `1Ei` (parsed as a decimal) are not integers — the CEL quantity library depends on this.
 */
import {
  type Amount,
  abs,
  addDec,
  addInt64,
  bounded,
  cmpAmount,
  divRoundAway,
  fitsInt64,
  goPow10,
  int64Max,
  nanoScale,
  pow10,
  quantityMaxDigits,
  removeFactors,
} from './quantity-amount.js';
import { isQuantityError, QuantityError } from './quantity-error.js';
import { scan } from './quantity-scan.js';
import {
  binarySuffixByExponent,
  canonicalDecimal,
  decimalSuffix,
  interpretSuffix,
} from './quantity-suffix.js';

/** The suffix family of a quantity's canonical string form (upstream `resource.Format`). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export { quantityMaxDigits } from './quantity-amount.js';
export type { QuantityErrorCode } from './quantity-error.js';
export { isQuantityError, QuantityError, quantitySplitRegexp } from './quantity-error.js';

let makeQuantity: (a: Amount, format: QuantityFormat, s?: string) => Quantity;

/** An immutable resource quantity. Create with `parseQuantity` or the `Quantity.from*` factories. */
export class Quantity {
  readonly orchardQuantity = true as const;
  readonly format: QuantityFormat;
  readonly #a: Amount;
  /** The input string, when upstream would keep it as the string form. */
  #s: string | undefined;

  private constructor(a: Amount, format: QuantityFormat, s?: string) {
    this.#a = a;
    this.format = format;
    this.#s = s;
  }

  static {
    makeQuantity = (a, format, s) => new Quantity(a, format, s);
  }

  /** `value` in `format` (upstream NewQuantity). */
  static fromInt(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return Quantity.fromScaled(value, 0, format);
  }

  /** `value / 1000` in `format` (upstream NewMilliQuantity). */
  static fromMilli(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return Quantity.fromScaled(value, -3, format);
  }

  /** `value * 10^scale` (upstream NewScaledQuantity). `value` must be an integer. */
  static fromScaled(value: bigint | number, scale: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(`Quantity value must be a safe integer, got ${value}`);
    }
    if (!Number.isInteger(scale) || Math.abs(scale) > quantityMaxDigits) {
      throw new RangeError(
        `Quantity scale must be an integer of magnitude at most ${quantityMaxDigits}, got ${scale}`,
      );
    }
    const v = BigInt(value);
    return new Quantity({ unscaled: v, scale, dec: !fitsInt64(v) }, format);
  }

  isZero(): boolean {
    return this.#a.unscaled === 0n;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.#a.unscaled < 0n ? -1 : this.#a.unscaled > 0n ? 1 : 0;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `y`. Exact. */
  cmp(y: Quantity): -1 | 0 | 1 {
    return cmpAmount(this.#a, y.#a);
  }

  cmpInt64(y: bigint | number): -1 | 0 | 1 {
    return cmpAmount(this.#a, { unscaled: BigInt(y), scale: 0, dec: false });
  }

  equals(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  /** `this + y`, exact. A zero quantity takes `y`'s format. */
  add(y: Quantity): Quantity {
    const format = this.isZero() ? y.format : this.format;
    const a = this.#a;
    const b = y.#a;
    const r = !a.dec && !b.dec ? addInt64(a, b) : undefined;
    return new Quantity(r ?? addDec(a, b), format);
  }

  /** `this - y`, exact. A zero quantity takes `y`'s format. */
  sub(y: Quantity): Quantity {
    const format = this.isZero() ? y.format : this.format;
    const a = this.#a;
    const b = y.#a;
    if (!a.dec && !b.dec) {
      // Negation wraps like Go's int64.
      const r = addInt64(a, { unscaled: BigInt.asIntN(64, -b.unscaled), scale: b.scale, dec: false });
      if (r) return new Quantity(r, format);
    }
    return new Quantity(addDec(a, { ...b, unscaled: -b.unscaled }), format);
  }

  neg(): Quantity {
    const a = this.#a;
    const dec = a.dec || !fitsInt64(-a.unscaled);
    return new Quantity({ unscaled: -a.unscaled, scale: a.scale, dec }, this.format);
  }

  /**
   * The value as an int64 when upstream can convert it without loss: an int64 amount with scale ≥ 0
   * whose value fits. Undefined otherwise (decimals, fractions, `1.0`, overflow).
   */
  asInt64(): bigint | undefined {
    const a = this.#a;
    if (a.dec || a.scale < 0) return undefined;
    if (a.unscaled === 0n) return 0n;
    if (a.scale > 18) return undefined;
    const v = a.unscaled * pow10(a.scale);
    return fitsInt64(v) ? v : undefined;
  }

  /** Whether `asInt64` succeeds (the CEL `isInteger()`). */
  isInteger(): boolean {
    return this.asInt64() !== undefined;
  }

  /** `asInt64`, or a `QuantityError` NotInteger (the CEL `asInteger()`). */
  asInteger(): bigint {
    const v = this.asInt64();
    if (v === undefined) throw new QuantityError('NotInteger');
    return v;
  }

  /** The nearest float, computed as upstream (`unscaled * 10^scale` in float64). */
  asApproximateFloat64(): number {
    const base = Number(this.#a.unscaled);
    if (this.#a.scale === 0) return base;
    return base * goPow10(this.#a.scale);
  }

  /** `ceil(this * 10^-scale)` rounded away from zero (upstream ScaledValue, without int64 wrap). */
  scaledValue(scale: number): bigint {
    const a = this.#a;
    if (a.scale >= scale) return a.unscaled * pow10(a.scale - scale);
    return divRoundAway(a.unscaled, scale - a.scale)[0];
  }

  /** The value rounded away from zero to an integer. */
  value(): bigint {
    return this.scaledValue(0);
  }

  /** The value in thousandths, rounded away from zero. */
  milliValue(): bigint {
    return this.scaledValue(-3);
  }

  /** Rounds away from zero to `scale` (e.g. -3 for milli); `exact` is false when precision was lost. */
  roundUp(scale: number): { quantity: Quantity; exact: boolean } {
    const a = this.#a;
    if (a.dec) {
      if (a.scale >= scale) {
        return {
          quantity: new Quantity(
            { unscaled: a.unscaled * pow10(a.scale - scale), scale, dec: true },
            this.format,
          ),
          exact: true,
        };
      }
      const [v, exact] = divRoundAway(a.unscaled, scale - a.scale);
      return { quantity: new Quantity({ unscaled: v, scale, dec: true }, this.format), exact };
    }
    if (a.scale >= scale) return { quantity: this, exact: true };
    const [v, exact] = divRoundAway(a.unscaled, scale - a.scale);
    return { quantity: new Quantity({ unscaled: v, scale, dec: false }, this.format), exact };
  }

  /** The same value in another format (its string changes accordingly). */
  withFormat(format: QuantityFormat): Quantity {
    return format === this.format ? this : new Quantity(this.#a, format);
  }

  /** The exact value as a plain decimal string (`1536`, `0.5`, `-0.001`), for debugging and tests. */
  toDecimalString(): string {
    const { unscaled, scale } = this.#a;
    if (scale >= 0) return (unscaled * pow10(scale)).toString();
    const neg = unscaled < 0n;
    const digits = abs(unscaled)
      .toString()
      .padStart(-scale + 1, '0');
    const int = digits.slice(0, digits.length + scale);
    const frac = digits.slice(digits.length + scale).replace(/0+$/, '');
    return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
  }

  /** The canonical string form (see the module comment). */
  toString(): string {
    this.#s ??= this.#canonical();
    return this.#s;
  }

  toJSON(): string {
    return this.toString();
  }

  #canonical(): string {
    const { unscaled, scale } = this.#a;
    if (unscaled === 0n) return '0';
    let format = this.format;
    if (format === 'BinarySI') {
      // Small or fractional binary values print as decimal rather than lose precision.
      if (this.cmpInt64(-1024) > 0 && this.cmpInt64(1024) < 0) format = 'DecimalSI';
      else if (scale < 0 && unscaled % pow10(-scale) !== 0n) format = 'DecimalSI';
    }
    if (format !== 'BinarySI') {
      const [m, e] = canonicalDecimal(unscaled, scale);
      return `${m}${decimalSuffix(e, format)}`;
    }
    const int = scale >= 0 ? unscaled * pow10(scale) : unscaled / pow10(-scale);
    let [m, e] = removeFactors(int, 1024n);
    // Past `Ei` there is no suffix: keep `Ei` and a larger mantissa.
    while (e > 6) {
      m *= 1024n;
      e--;
    }
    return `${m}${binarySuffixByExponent.get(e * 10) ?? ''}`;
  }
}

/** Whether `x` is a `Quantity`. */
export function isQuantity(x: unknown): x is Quantity {
  return hasBrand(x, 'orchardQuantity');
}

/** Parses a quantity string. Throws `QuantityError` with upstream's messages. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError('FormatWrong');
  if (str === '0') return makeQuantity({ unscaled: 0n, scale: 0, dec: false }, 'DecimalSI', '0');
  const { positive, value, num, denom, suffix } = scan(str);
  const sfx = interpretSuffix(suffix);
  if (!sfx) throw new QuantityError('Suffix');
  const { base, exponent } = sfx;
  let format = sfx.format;

  // Upstream's int64 fast path: exact, no rounding needed, remembers int64-ness.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= nanoScale) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      if (!fitsInt64(v)) throw new QuantityError('Numeric');
      let result = v * mantissa;
      if (fitsInt64(result)) {
        if (!positive) result = -result;
        const a: Amount = { unscaled: result, scale, dec: false };
        const keep =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (v & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return makeQuantity(bounded(a), format, keep ? str : undefined);
      }
    }
  }

  // The exact path: arbitrary precision, rounded up to nano.
  const m = /^[+-]?([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  const intDigits = m?.[1] ?? '';
  const fracDigits = m?.[2] ?? '';
  if (!m || intDigits.length + fracDigits.length === 0) throw new QuantityError('Numeric');
  const significant = (intDigits + fracDigits).replace(/^0+/, '');
  let unscaled = BigInt(intDigits + fracDigits || '0');
  let sc = -fracDigits.length;
  if (base === 10) sc += exponent;
  if (unscaled !== 0n) {
    const magnitudeDigits = significant.length + sc + (base === 2 ? Math.ceil(exponent * 0.302) : 0);
    if (magnitudeDigits > quantityMaxDigits) throw new QuantityError('Numeric');
    if (significant.length + sc <= nanoScale && base === 10) {
      // Below one nano: rounds up to exactly 1n.
      unscaled = 1n;
      sc = nanoScale;
    }
  }
  if (base === 2) unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n) {
    if (sc < nanoScale) {
      unscaled = divRoundAway(unscaled, nanoScale - sc)[0];
    } else {
      unscaled *= pow10(sc - nanoScale);
    }
    sc = nanoScale;
  }
  if (format === 'BinarySI' && unscaled > int64Max * 10n ** 9n) {
    unscaled = int64Max;
    sc = 0;
  }
  const mag: Amount = { unscaled, scale: sc, dec: true };
  if (
    format === 'BinarySI' &&
    unscaled !== 0n &&
    cmpAmount(mag, { unscaled: 1n, scale: 0, dec: false }) < 0
  ) {
    format = 'DecimalSI';
  }
  return makeQuantity(bounded({ unscaled: positive ? unscaled : -unscaled, scale: sc, dec: true }), format);
}

/** `parseQuantity`, or undefined when the string is not a quantity. */
export function tryParseQuantity(str: string): Quantity | undefined {
  try {
    return parseQuantity(str);
  } catch (e) {
    if (isQuantityError(e)) return undefined;
    throw e;
  }
}

/**
 * Decodes a quantity field of a JSON body as upstream's `UnmarshalJSON`: a string (surrounding
 * whitespace trimmed) or a number; `null` gives undefined. Anything else is `FormatWrong`.
 */
export function quantityFromJson(v: unknown): Quantity | undefined {
  if (v === null) return undefined;
  if (typeof v === 'string') return parseQuantity(v.trim());
  if (typeof v === 'number' && Number.isFinite(v)) return parseQuantity(String(v));
  if (typeof v === 'bigint') return parseQuantity(v.toString());
  throw new QuantityError('FormatWrong');
}
