import { describe, expect, it } from 'vitest';
import { DurationParseError, formatGoDuration, isDurationParseError, parseGoDuration } from './duration.js';

// Go's time.ParseDuration: [input, nanoseconds].
const valid: Array<[string, bigint]> = [
  ['0', 0n],
  ['-0', 0n],
  ['+0', 0n],
  ['5s', 5_000_000_000n],
  ['30s', 30_000_000_000n],
  ['1478s', 1_478_000_000_000n],
  ['-5s', -5_000_000_000n],
  ['+5s', 5_000_000_000n],
  ['-0s', 0n],
  ['5.0s', 5_000_000_000n],
  ['5.6s', 5_600_000_000n],
  ['5.s', 5_000_000_000n],
  ['.5s', 500_000_000n],
  ['1.0s', 1_000_000_000n],
  ['1.00s', 1_000_000_000n],
  ['1.004s', 1_004_000_000n],
  ['100.00100s', 100_001_000_000n],
  ['10ns', 10n],
  ['11us', 11_000n],
  ['12µs', 12_000n],
  ['12μs', 12_000n],
  ['13ms', 13_000_000n],
  ['14s', 14_000_000_000n],
  ['15m', 900_000_000_000n],
  ['16h', 57_600_000_000_000n],
  ['3h30m', 12_600_000_000_000n],
  ['10.5s4m', 250_500_000_000n],
  ['-2m3.4s', -123_400_000_000n],
  ['1h2m3s4ms5us6ns', 3_723_004_005_006n],
  ['39h9m14.425s', 140_954_425_000_000n],
  ['52763797000ns', 52_763_797_000n],
  ['0.3333333333333333333h', 1_200_000_000_000n],
  ['9007199254740993ns', 9_007_199_254_740_993n],
  ['9223372036854775807ns', 9_223_372_036_854_775_807n],
  ['9223372036854775.807us', 9_223_372_036_854_775_807n],
  ['9223372036s854ms775us807ns', 9_223_372_036_854_775_807n],
  ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
  ['-9223372036854775.808us', -9_223_372_036_854_775_808n],
  ['0.100000000000000000000h', 360_000_000_000n],
  ['0.830103483285477580700h', 2_988_372_539_827n],
];

const invalid: Array<[string, string]> = [
  ['', 'time: invalid duration ""'],
  ['3', 'time: missing unit in duration "3"'],
  ['-', 'time: invalid duration "-"'],
  ['s', 'time: invalid duration "s"'],
  ['.', 'time: invalid duration "."'],
  ['-.', 'time: invalid duration "-."'],
  ['.s', 'time: invalid duration ".s"'],
  ['+.s', 'time: invalid duration "+.s"'],
  ['1d', 'time: unknown unit "d" in duration "1d"'],
  ['2s junk', 'time: unknown unit "s junk" in duration "2s junk"'],
  [' 2s', 'time: invalid duration " 2s"'],
  ['1__proto__', 'time: unknown unit "__proto__" in duration "1__proto__"'],
  ['1constructor', 'time: unknown unit "constructor" in duration "1constructor"'],
  ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
  ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
  ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
  ['3000000h', 'time: invalid duration "3000000h"'],
  ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
];

describe('parseGoDuration (Go time.ParseDuration)', () => {
  it.each(valid)('%s', (text, ns) => {
    expect(parseGoDuration(text)).toBe(ns);
  });
  it.each(invalid)('rejects %j', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(new DurationParseError(message));
    try {
      parseGoDuration(text);
    } catch (e) {
      expect(isDurationParseError(e)).toBe(true);
    }
  });
  it('reads a long fraction without growing (digits past int64 ignored)', () => {
    expect(parseGoDuration(`1.${'5'.repeat(100_000)}s`)).toBe(1_555_555_555n);
    expect(() => parseGoDuration('9'.repeat(100_000))).toThrow('time: invalid duration');
  });
});

describe('formatGoDuration', () => {
  it('formats durations as Go does', () => {
    const s = 1_000_000_000n;
    expect(
      [0n, 45n * s, 60n * s, 90n * s, 3600n * s, 1500n * 1_000_000n, 500n * 1_000_000n, -5n * s].map(
        formatGoDuration,
      ),
    ).toEqual(['0s', '45s', '1m0s', '1m30s', '1h0m0s', '1.5s', '500ms', '-5s']);
  });
});
