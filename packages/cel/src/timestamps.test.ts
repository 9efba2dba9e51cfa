import { describe, expect, it } from 'vitest';
import { compile, createEnv } from './environment.js';
import {
  compareTimestamps,
  formatTimestamp,
  subMillisecondNanos,
  timestampFromNanos,
  timestampNanos,
  withFraction,
} from './timestamps.js';

describe('timestamp helpers', () => {
  it('round-trips nanoseconds, before and after the epoch', () => {
    for (const ns of [
      0n,
      1n,
      999_999n,
      1_000_000n,
      1_234_567_891n,
      -1n,
      -1_000_001n,
      253402300799999999999n,
    ]) {
      expect(timestampNanos(timestampFromNanos(ns))).toBe(ns);
    }
    expect(subMillisecondNanos(timestampFromNanos(-1n))).toBe(999_999);
    expect(timestampFromNanos(-1n).getTime()).toBe(-1);
  });

  it.each([
    ['2009-02-13T23:31:30Z', '2009-02-13T23:31:30Z'],
    ['2009-02-13T23:31:30.100Z', '2009-02-13T23:31:30.1Z'],
    ['2009-02-13T23:31:30.123456789Z', '2009-02-13T23:31:30.123456789Z'],
    ['2009-02-13T23:31:30.000001Z', '2009-02-13T23:31:30.000001Z'],
  ])('formats %s as %s (RFC 3339 with trimmed fraction)', (text, want) => {
    expect(formatTimestamp(withFraction(new Date(text), text))).toBe(want);
  });

  it('orders at nanosecond precision', () => {
    const a = timestampFromNanos(1_000_000_001n);
    const b = timestampFromNanos(1_000_000_002n);
    expect(compareTimestamps(a, b)).toBe(-1);
    expect(compareTimestamps(b, a)).toBe(1);
    expect(compareTimestamps(a, timestampFromNanos(1_000_000_001n))).toBe(0);
  });
});

describe('nanosecond timestamps in expressions', () => {
  const env = createEnv({ variables: { t: 'google.protobuf.Timestamp' } });
  it.each([
    ["string(timestamp('9999-12-31T23:59:59.999999999Z'))", '9999-12-31T23:59:59.999999999Z'],
    [
      "timestamp('0001-01-01T00:00:01.999999999Z') + duration('999999999ns') == timestamp('0001-01-01T00:00:02.999999998Z')",
      true,
    ],
    ["timestamp('2020-01-01T00:00:00.000000001Z') > timestamp('2020-01-01T00:00:00Z')", true],
    ["timestamp('2020-01-01T00:00:00.000000001Z') == timestamp('2020-01-01T00:00:00Z')", false],
    [
      "string(timestamp('2020-01-01T00:00:00.000000002Z') - timestamp('2020-01-01T00:00:00.000000001Z'))",
      '0.000000001s',
    ],
    ["string(timestamp('2020-01-01T00:00:00Z') - duration('1ns'))", '2019-12-31T23:59:59.999999999Z'],
    ["string(duration('1ns') + timestamp('2020-01-01T00:00:00Z'))", '2020-01-01T00:00:00.000000001Z'],
    ["[timestamp('2020-01-01T00:00:00.000000001Z')] == [timestamp('2020-01-01T00:00:00Z')]", false],
  ])('%s', (expr, want) => {
    expect(compile(expr, env).evaluate({ t: new Date(0) })).toEqual(want);
  });

  it('fails past the maximum timestamp by a nanosecond', () => {
    expect(() =>
      compile("timestamp('9999-12-31T23:59:59.999999999Z') + duration('1ns')", env).evaluate({
        t: new Date(0),
      }),
    ).toThrow(/timestamp out of range/);
  });

  it('accepts a nanosecond timestamp in the activation', () => {
    const t = timestampFromNanos(1_500_000_000_123_456_789n);
    expect(compile('string(t)', env).evaluate({ t })).toBe('2017-07-14T02:40:00.123456789Z');
  });
});

describe('duration getMilliseconds', () => {
  const env = createEnv({ variables: { d: 'google.protobuf.Duration' } });
  it.each([
    ["duration('123.321456789s')", 321n],
    ["duration('-1.5s')", -500n],
    ["duration('2s')", 0n],
  ])('%s.getMilliseconds() is the millisecond of its second', (d, want) => {
    expect(compile(`${d}.getMilliseconds()`, env).evaluate({ d: null })).toBe(want);
  });
});
