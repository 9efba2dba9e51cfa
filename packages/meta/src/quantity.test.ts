import { describe, expect, it } from 'vitest';
import {
  isQuantityError,
  parseQuantity,
  type QuantityFormat,
  quantitySplitRegexp,
  tryParseQuantity,
} from './quantity.js';

// [input, exact decimal value, format]: upstream TestQuantityParse.
const parseTable: Array<[string, string, QuantityFormat]> = [
  ['0', '0', 'DecimalSI'],
  ['0n', '0', 'DecimalSI'],
  ['0u', '0', 'DecimalSI'],
  ['0m', '0', 'DecimalSI'],
  ['0Ki', '0', 'BinarySI'],
  ['0k', '0', 'DecimalSI'],
  ['0Mi', '0', 'BinarySI'],
  ['0M', '0', 'DecimalSI'],
  ['0Gi', '0', 'BinarySI'],
  ['0G', '0', 'DecimalSI'],
  ['0Ti', '0', 'BinarySI'],
  ['0T', '0', 'DecimalSI'],
  ['-0', '0', 'DecimalSI'],
  // Binary suffixes
  ['1Ki', '1024', 'BinarySI'],
  ['8Ki', String(8 * 1024), 'BinarySI'],
  ['7Mi', String(7 * 1024 ** 2), 'BinarySI'],
  ['6Gi', String(6 * 1024 ** 3), 'BinarySI'],
  ['5Ti', String(5 * 1024 ** 4), 'BinarySI'],
  ['4Pi', String(4n * 1024n ** 5n), 'BinarySI'],
  ['3Ei', String(3n * 1024n ** 6n), 'BinarySI'],
  ['10Ti', String(10 * 1024 ** 4), 'BinarySI'],
  ['100Ti', String(100 * 1024 ** 4), 'BinarySI'],
  // Decimal suffixes
  ['5n', '0.000000005', 'DecimalSI'],
  ['4u', '0.000004', 'DecimalSI'],
  ['3m', '0.003', 'DecimalSI'],
  ['9', '9', 'DecimalSI'],
  ['8k', '8000', 'DecimalSI'],
  ['50k', '50000', 'DecimalSI'],
  ['7M', '7000000', 'DecimalSI'],
  ['6G', '6000000000', 'DecimalSI'],
  ['5T', '5000000000000', 'DecimalSI'],
  ['40T', '40000000000000', 'DecimalSI'],
  ['300T', '300000000000000', 'DecimalSI'],
  ['2P', '2000000000000000', 'DecimalSI'],
  ['1E', '1000000000000000000', 'DecimalSI'],
  // Decimal exponents
  ['1E-3', '0.001', 'DecimalExponent'],
  ['1e3', '1000', 'DecimalExponent'],
  ['1E6', '1000000', 'DecimalExponent'],
  ['1e9', '1000000000', 'DecimalExponent'],
  ['1E12', '1000000000000', 'DecimalExponent'],
  ['1e15', '1000000000000000', 'DecimalExponent'],
  ['1E18', '1000000000000000000', 'DecimalExponent'],
  // Nonstandard but still parsable
  ['1e14', '100000000000000', 'DecimalExponent'],
  ['1e13', '10000000000000', 'DecimalExponent'],
  ['100.035k', '100035', 'DecimalSI'],
  // Things that look like floating point
  ['0.001', '0.001', 'DecimalSI'],
  ['0.0005k', '0.5', 'DecimalSI'],
  ['0.005', '0.005', 'DecimalSI'],
  ['0.05', '0.05', 'DecimalSI'],
  ['0.5', '0.5', 'DecimalSI'],
  ['0.00050k', '0.5', 'DecimalSI'],
  ['0.00500', '0.005', 'DecimalSI'],
  ['0.05000', '0.05', 'DecimalSI'],
  ['0.50000', '0.5', 'DecimalSI'],
  ['0.5e0', '0.5', 'DecimalExponent'],
  ['0.5e-1', '0.05', 'DecimalExponent'],
  ['0.5e-2', '0.005', 'DecimalExponent'],
  ['10.035M', '10035000', 'DecimalSI'],
  ['1.2e3', '1200', 'DecimalExponent'],
  ['1.3E+6', '1300000', 'DecimalExponent'],
  ['1.40e9', '1400000000', 'DecimalExponent'],
  ['1.53E12', '1530000000000', 'DecimalExponent'],
  ['1.6e15', '1600000000000000', 'DecimalExponent'],
  ['1.7E18', '1700000000000000000', 'DecimalExponent'],
  ['9.01', '9.01', 'DecimalSI'],
  ['8.1k', '8100', 'DecimalSI'],
  ['7.123456M', '7123456', 'DecimalSI'],
  ['6.987654321G', '6987654321', 'DecimalSI'],
  ['5.444T', '5444000000000', 'DecimalSI'],
  ['40.1T', '40100000000000', 'DecimalSI'],
  ['300.2T', '300200000000000', 'DecimalSI'],
  ['2.5P', '2500000000000000', 'DecimalSI'],
  ['1.01E', '1010000000000000000', 'DecimalSI'],
  // Things that saturate/round
  ['3.001n', '0.000000004', 'DecimalSI'],
  ['1.1E-9', '0.000000002', 'DecimalExponent'],
  ['0.0000000001', '0.000000001', 'DecimalSI'],
  ['0.0000000005', '0.000000001', 'DecimalSI'],
  ['0.00000000050', '0.000000001', 'DecimalSI'],
  ['0.5e-9', '0.000000001', 'DecimalExponent'],
  ['0.9n', '0.000000001', 'DecimalSI'],
  ['0.00000012345', '0.000000124', 'DecimalSI'],
  ['0.00000012354', '0.000000124', 'DecimalSI'],
  ['-0.00000012354', '-0.000000124', 'DecimalSI'],
  ['9Ei', '9223372036854775807', 'BinarySI'],
  ['9223372036854775807Ki', '9223372036854775807', 'BinarySI'],
  ['12E', '12000000000000000000', 'DecimalSI'],
  // Fractional binary
  ['100.035Ki', '102435.84', 'BinarySI'],
  ['0.5Mi', String(0.5 * 1024 * 1024), 'BinarySI'],
  ['0.05Gi', '53687091.2', 'BinarySI'],
  ['0.025Ti', '27487790694.4', 'BinarySI'],
  // Things written by trolls
  ['0.000000000001Ki', '0.000000002', 'DecimalSI'],
  ['.001', '0.001', 'DecimalSI'],
  ['.0001k', '0.1', 'DecimalSI'],
  ['1.', '1', 'DecimalSI'],
  ['1.G', '1000000000', 'DecimalSI'],
  ['-1.5', '-1.5', 'DecimalSI'],
  ['+1.5', '1.5', 'DecimalSI'],
  ['.', '0', 'DecimalSI'],
  ['1e1000', `1${'0'.repeat(1000)}`, 'DecimalExponent'],
  ['1e-1000', '0.000000001', 'DecimalExponent'],
  ['1e-2147483648', '0.000000001', 'DecimalExponent'],
  ['1e4294967296', '1', 'DecimalExponent'],
  [
    '9999999999999999999999999999999999999G',
    `9999999999999999999999999999999999999${'0'.repeat(9)}`,
    'DecimalSI',
  ],
];

describe('parseQuantity: value and format', () => {
  it.each(parseTable)('%s = %s (%s)', (input, value, format) => {
    const q = parseQuantity(input);
    expect(q.toDecimalString()).toBe(value);
    expect(q.format).toBe(format);
    // The string form parses back to the same value.
    expect(parseQuantity(q.toString()).cmp(q)).toBe(0);
  });
});

// [input, canonical string]: upstream TestQuantityString / ParseEmit and the brief's examples.
const canonicalTable: Array<[string, string]> = [
  ['1Gi', '1Gi'],
  ['1024Mi', '1Gi'],
  ['1073741824', '1073741824'],
  ['300Mi', '300Mi'],
  ['6Ki', '6Ki'],
  ['1001Gi', '1001Gi'],
  ['1024Gi', '1Ti'],
  ['1.5Gi', '1536Mi'],
  ['1.5Ki', '1536'],
  ['5Ki', '5Ki'],
  ['0.5Ki', '512'],
  ['0.0001Ki', '102400u'],
  ['1025Ki', '1025Ki'],
  ['2048Ki', '2Mi'],
  ['1536Ki', '1536Ki'],
  ['1G', '1G'],
  ['1000M', '1G'],
  ['1000000k', '1G'],
  ['1000000000', '1G'],
  ['1m', '1m'],
  ['80m', '80m'],
  ['1080m', '1080m'],
  ['1.08', '1080m'],
  ['1080000000n', '1080m'],
  ['300M', '300M'],
  ['1T', '1T'],
  ['1234567M', '1234567M'],
  ['3k', '3k'],
  ['0', '0'],
  ['00', '0'],
  ['0Ki', '0'],
  ['0e3', '0'],
  ['1e9', '1e9'],
  ['.001e12', '1e9'],
  ['1e-3', '1e-3'],
  ['0.001e0', '1e-3'],
  ['1e-9', '1e-9'],
  ['1000e-12', '1e-9'],
  ['80e-3', '80e-3'],
  ['300e6', '300e6'],
  ['1e12', '1e12'],
  ['3e3', '3e3'],
  ['12e2', '1200'],
  ['1.5e-3', '1500e-6'],
  ['1n', '1n'],
  ['80n', '80n'],
  ['1080n', '1080n'],
  ['1u', '1u'],
  ['80u', '80u'],
  ['1080u', '1080u'],
  ['1500m', '1500m'],
  ['1.5', '1500m'],
  ['0.1', '100m'],
  ['100m', '100m'],
  ['1000m', '1'],
  ['-1.5', '-1500m'],
  ['-1Ki', '-1Ki'],
  ['-1.5Gi', '-1536Mi'],
  ['-0.5Ki', '-512'],
  ['1.0', '1'],
  ['0.5e0', '500e-3'],
  ['1.7E18', '1700e15'],
  ['1.01E', '1010P'],
  ['12000P', '12E'],
  // Beyond `E`, DecimalSI falls back to the exponent form instead of dropping the magnitude.
  ['1000E', '1e21'],
  ['5000E', '5e21'],
  ['1000000E', '1e24'],
  // Strings upstream keeps verbatim because they look canonical.
  ['+1', '+1'],
  ['05', '05'],
  ['1.', '1.'],
  ['1E3', '1E3'],
  ['01Ki', '01Ki'],
  ['1.080', '1.080'],
];

describe('parseQuantity: canonical string', () => {
  it.each(canonicalTable)('%s → %s', (input, out) => {
    const q = parseQuantity(input);
    expect(q.toString()).toBe(out);
    expect(JSON.stringify({ q })).toBe(JSON.stringify({ q: out }));
  });
  it('canonical strings are fixed points', () => {
    for (const [, out] of canonicalTable) expect(parseQuantity(out).toString()).toBe(out);
  });
});

describe('parseQuantity: errors', () => {
  const table: Array<[string, 'FormatWrong' | 'Suffix' | 'Numeric']> = [
    ['', 'FormatWrong'],
    ['1.1.M', 'FormatWrong'],
    ['1+1.0M', 'FormatWrong'],
    ['0.1mi', 'Suffix'],
    ['0.1am', 'FormatWrong'],
    ['aoeu', 'FormatWrong'],
    ['.5i', 'Suffix'],
    ['1i', 'Suffix'],
    ['-3.01i', 'Suffix'],
    ['-3.01e-', 'Suffix'],
    [' 1', 'FormatWrong'],
    ['1 ', 'FormatWrong'],
    ['1K', 'Suffix'],
    ['1e', 'Suffix'],
    ['1Ee3', 'Suffix'],
    ['1e99999999999999999999', 'Suffix'],
    ['1x', 'FormatWrong'],
    ['--1', 'Suffix'],
    ['1Gi1', 'Suffix'],
    ['.e-10', 'Numeric'],
    ['1e5000', 'Numeric'],
    ['1e2000000000', 'Numeric'],
  ];
  it.each(table)('%j → %s', (input, code) => {
    let err: unknown;
    try {
      parseQuantity(input);
    } catch (e) {
      err = e;
    }
    expect(isQuantityError(err)).toBe(true);
    if (!isQuantityError(err)) return;
    expect(err.code).toBe(code);
    expect(tryParseQuantity(input)).toBeUndefined();
  });
  it('uses upstream messages', () => {
    expect(() => parseQuantity('aoeu')).toThrow(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(quantitySplitRegexp).toBe('^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$');
    expect(() => parseQuantity('1i')).toThrow("unable to parse quantity's suffix");
    expect(() => parseQuantity('.e-10')).toThrow('unable to parse numeric part of quantity');
  });
});
