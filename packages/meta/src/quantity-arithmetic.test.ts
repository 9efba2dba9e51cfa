import { describe, expect, it } from 'vitest';
import { isQuantity, parseQuantity, Quantity, QuantityError, quantityFromJson } from './quantity.js';

/** Quantity arithmetic, comparison, integer views, floats, factories and JSON: upstream quantity_test.go. */

describe('arithmetic', () => {
  const table: Array<[string, 'add' | 'sub', string, string]> = [
    ['1', 'add', '1', '2'],
    ['1.5', 'add', '500m', '2'],
    ['1Ki', 'add', '1Ki', '2Ki'],
    ['1Mi', 'sub', '1Ki', '1023Ki'],
    ['1', 'sub', '1', '0'],
    ['0', 'add', '1Ki', '1Ki'],
    ['0', 'sub', '1Ki', '-1Ki'],
    ['100m', 'sub', '1', '-900m'],
    ['1e3', 'add', '1k', '2e3'],
    ['9223372036854775807', 'add', '1', '9223372036854775808'],
    ['-9223372036854775808', 'sub', '1', '-9223372036854775809'],
    ['1n', 'add', '1E', '1000000000000000000000000001n'],
    ['1Ei', 'add', '1Ei', '2Ei'],
    ['7Ei', 'add', '7Ei', '14Ei'],
  ];
  it.each(table)('%s %s %s = %s', (a, op, b, want) => {
    const x = parseQuantity(a);
    const y = parseQuantity(b);
    const r = op === 'add' ? x.add(y) : x.sub(y);
    expect(r.toString()).toBe(want);
    // operands are not mutated
    expect(x.cmp(parseQuantity(a))).toBe(0);
  });
  it('add and sub are inverse and commutative in value', () => {
    const vals = ['1.5', '1Ki', '3e-3', '12E', '0.000000001', '-7Mi', '0'];
    for (const a of vals) {
      for (const b of vals) {
        const x = parseQuantity(a);
        const y = parseQuantity(b);
        expect(x.add(y).sub(y).cmp(x)).toBe(0);
        expect(x.add(y).cmp(y.add(x))).toBe(0);
      }
    }
  });
  it('neg', () => {
    expect(parseQuantity('1.5').neg().toString()).toBe('-1500m');
    expect(parseQuantity('-1Ki').neg().toString()).toBe('1Ki');
  });
});

describe('cmp and sign', () => {
  const table: Array<[string, string, -1 | 0 | 1]> = [
    ['1', '1', 0],
    ['1', '1000m', 0],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
    ['1Mi', '1M', 1],
    ['-1', '1', -1],
    ['0', '-0', 0],
    ['1n', '0', 1],
    ['-1n', '0', -1],
    ['1e1000', '9Ei', 1],
    ['-1e1000', '-9Ei', -1],
    ['999m', '1', -1],
    ['0.000000001', '1n', 0],
    ['12E', '12000P', 0],
  ];
  it.each(table)('cmp(%s, %s) = %i', (a, b, want) => {
    expect(parseQuantity(a).cmp(parseQuantity(b))).toBe(want);
    expect(parseQuantity(b).cmp(parseQuantity(a))).toBe(-want || 0);
  });
  it.each([
    ['0', 0],
    ['1n', 1],
    ['-1n', -1],
    ['-0.000', 0],
    ['5Gi', 1],
  ] as const)('sign(%s) = %i', (a, s) => expect(parseQuantity(a).sign()).toBe(s));
  it('cmpInt64', () => {
    expect(parseQuantity('1Ki').cmpInt64(1024)).toBe(0);
    expect(parseQuantity('1001m').cmpInt64(1)).toBe(1);
  });
});

describe('integers', () => {
  // As upstream's AsInt64 (and so the CEL isInteger/asInteger).
  const table: Array<[string, bigint | undefined]> = [
    ['0', 0n],
    ['1', 1n],
    ['-1', -1n],
    ['50k', 50000n],
    ['50703k', 50703000n],
    ['50.703k', 50703n],
    ['1Ki', 1024n],
    ['1Ti', 1099511627776n],
    ['922337203685477580', 922337203685477580n],
    // 19 digits take upstream's decimal path
    ['9223372036854775807', undefined],
    ['1.0', undefined],
    ['1.5', undefined],
    ['500m', undefined],
    ['1Ei', undefined],
    ['100Ti', undefined],
    ['12E', undefined],
    ['9999999999999999999999999999999999999G', undefined],
  ];
  it.each(table)('%s → %s', (input, want) => {
    const q = parseQuantity(input);
    expect(q.asInt64()).toBe(want);
    expect(q.isInteger()).toBe(want !== undefined);
    if (want === undefined) expect(() => q.asInteger()).toThrow('cannot convert value to integer');
    else expect(q.asInteger()).toBe(want);
  });
  it('sums of int64 amounts stay integers until they overflow', () => {
    const big = Quantity.fromInt(9223372036854775807n);
    expect(big.add(parseQuantity('0')).isInteger()).toBe(true);
    expect(big.add(parseQuantity('1')).isInteger()).toBe(false);
    expect(Quantity.fromInt(5).add(Quantity.fromInt(6)).asInteger()).toBe(11n);
  });
});

describe('asApproximateFloat64', () => {
  // upstream TestQuantityAsApproximateFloat64 / TestStringQuantityAsApproximateFloat64
  const m7 = 7 * 1024 * 1024;
  const table: Array<[string | Quantity, number]> = [
    ['0', 0],
    ['1', 1],
    ['1Ki', 1024],
    ['8Ki', 8192],
    ['7Mi', m7],
    [Quantity.fromScaled(m7, 1, 'BinarySI'), m7 * 10],
    [Quantity.fromScaled(m7, 4), m7 * 10000],
    [Quantity.fromScaled(m7, 8, 'DecimalExponent'), m7 * 100000000],
    // '* Pow10' and '/ float(10)' do not round the same way
    [Quantity.fromScaled(m7, -1), m7 * 0.1],
    [Quantity.fromScaled(m7, -8), m7 / 100000000],
    [Quantity.fromInt(9223372036854775807n), 2 ** 63],
    ['9Ei', 2 ** 63],
    ['12E', 1.2e19],
    [Quantity.fromScaled(12, 500), Number.POSITIVE_INFINITY],
    [Quantity.fromScaled(-12, 500), Number.NEGATIVE_INFINITY],
    ['2Ki', 2048],
    ['1.1Ki', 1126.4],
    ['1Mi', 1.048576e6],
    ['2Gi', 2.147483648e9],
    ['5n', 5e-9],
    ['1.5', 1.5],
    ['-2.5Ki', -2560],
  ];
  it.each(table)('%s ≈ %d', (q, want) => {
    const quantity = typeof q === 'string' ? parseQuantity(q) : q;
    expect(quantity.asApproximateFloat64()).toBe(want);
  });
});

describe('factories, scaled values and rounding', () => {
  it('fromInt / fromMilli / fromScaled', () => {
    expect(Quantity.fromInt(1024, 'BinarySI').toString()).toBe('1Ki');
    expect(Quantity.fromInt(1000).toString()).toBe('1k');
    expect(Quantity.fromInt(5, 'BinarySI').toString()).toBe('5');
    expect(Quantity.fromMilli(500, 'BinarySI').toString()).toBe('500m');
    expect(Quantity.fromMilli(1500).toString()).toBe('1500m');
    expect(Quantity.fromScaled(1234567, -3, 'BinarySI').toString()).toBe('1234567m');
    expect(Quantity.fromScaled(3, 3, 'DecimalExponent').toString()).toBe('3e3');
    expect(Quantity.fromInt(1, 'DecimalExponent').toString()).toBe('1');
    expect(() => Quantity.fromInt(1.5)).toThrow(RangeError);
  });
  it('value and milliValue round away from zero', () => {
    expect(parseQuantity('1.1').value()).toBe(2n);
    expect(parseQuantity('-1.1').value()).toBe(-2n);
    expect(parseQuantity('1Ki').value()).toBe(1024n);
    expect(parseQuantity('1.5').milliValue()).toBe(1500n);
    expect(parseQuantity('1n').milliValue()).toBe(1n);
    expect(parseQuantity('2k').scaledValue(3)).toBe(2n);
  });
  it('roundUp', () => {
    const r = parseQuantity('1.0001').roundUp(-3);
    expect(r.exact).toBe(false);
    expect(r.quantity.toString()).toBe('1001m');
    expect(parseQuantity('1.5').roundUp(-3).exact).toBe(true);
    expect(parseQuantity('-9').roundUp(1).quantity.toDecimalString()).toBe('-10');
  });
  it('withFormat and guards', () => {
    expect(parseQuantity('1024').withFormat('BinarySI').toString()).toBe('1Ki');
    expect(isQuantity(parseQuantity('1'))).toBe(true);
    expect(isQuantity('1')).toBe(false);
  });
});

describe('quantityFromJson', () => {
  const table: Array<[unknown, string | undefined | 'error']> = [
    ['1.5Gi', '1536Mi'],
    [' 100m ', '100m'],
    ['\t1Ki\n', '1Ki'],
    [1.5, '1500m'],
    [-3, '-3'],
    [1e21, '1e+21'], // kept verbatim: it looks canonical
    [1e-7, '100e-9'],
    [0, '0'],
    [12n, '12'],
    [null, undefined],
    [true, 'error'],
    [{}, 'error'],
    ['', 'error'],
    ['1 Gi', 'error'],
  ];
  it.each(table)('%s → %s', (v, want) => {
    if (want === 'error') {
      expect(() => quantityFromJson(v)).toThrow(QuantityError);
      return;
    }
    expect(quantityFromJson(v)?.toString()).toBe(want);
  });
});
