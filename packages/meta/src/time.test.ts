import { describe, expect, it, vi } from 'vitest';
import {
  formatMicroTime,
  formatRfc3339,
  formatRfc3339Parts,
  isRfc3339,
  nowMicroTime,
  nowRfc3339,
  parseRfc3339,
  parseRfc3339Parts,
  TimeParseError,
} from './time.js';

describe('formatRfc3339', () => {
  const table: Array<[string, string]> = [
    ['2024-05-01T12:34:56.789Z', '2024-05-01T12:34:56Z'],
    ['2024-05-01T23:59:59.999Z', '2024-05-01T23:59:59Z'],
    ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00Z'],
    ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00Z'],
  ];
  it.each(table)('%s → %s', (iso, want) => expect(formatRfc3339(new Date(iso))).toBe(want));
  it('rejects invalid dates and years beyond 9999', () => {
    expect(() => formatRfc3339(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatRfc3339(new Date('+010000-01-01T00:00:00Z'))).toThrow('year outside of range');
  });
  it('nowRfc3339 has second precision and Z', () => {
    expect(nowRfc3339()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(nowRfc3339(new Date('2030-01-02T03:04:05.6Z'))).toBe('2030-01-02T03:04:05Z');
  });
  it('nowRfc3339 follows the clock across seconds, backwards too (its text is kept per second)', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2031-05-06T07:08:09.100Z'));
      expect(nowRfc3339()).toBe('2031-05-06T07:08:09Z');
      vi.setSystemTime(new Date('2031-05-06T07:08:09.900Z'));
      expect(nowRfc3339()).toBe('2031-05-06T07:08:09Z');
      vi.setSystemTime(new Date('2031-05-06T07:08:10.000Z'));
      expect(nowRfc3339()).toBe('2031-05-06T07:08:10Z');
      vi.setSystemTime(new Date('2029-01-01T00:00:00.500Z'));
      expect(nowRfc3339()).toBe('2029-01-01T00:00:00Z');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('formatMicroTime', () => {
  const table: Array<[string, number, string]> = [
    ['2024-05-01T12:34:56.789Z', 0, '2024-05-01T12:34:56.789000Z'],
    ['2024-05-01T12:34:56.789Z', 123, '2024-05-01T12:34:56.789123Z'],
    ['2024-05-01T12:34:56.000Z', 5, '2024-05-01T12:34:56.000005Z'],
    ['2024-05-01T12:34:56.001Z', 999, '2024-05-01T12:34:56.001999Z'],
  ];
  it.each(table)('%s + %iµs → %s', (iso, us, want) => expect(formatMicroTime(new Date(iso), us)).toBe(want));
  it('rejects out-of-range micros', () => {
    expect(() => formatMicroTime(new Date(0), 1000)).toThrow(RangeError);
    expect(() => formatMicroTime(new Date(0), -1)).toThrow(RangeError);
  });
  it('nowMicroTime has six fractional digits', () => {
    expect(nowMicroTime()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});

describe('parseRfc3339 (Go time.Parse(time.RFC3339))', () => {
  // [input, instant as toISOString, nanos, offset seconds]
  const valid: Array<[string, string, number, number]> = [
    ['2024-05-01T12:34:56Z', '2024-05-01T12:34:56.000Z', 0, 0],
    ['2024-05-01T12:34:56.5Z', '2024-05-01T12:34:56.500Z', 500_000_000, 0],
    ['2024-05-01T12:34:56.123456Z', '2024-05-01T12:34:56.123Z', 123_456_000, 0],
    ['2024-05-01T12:34:56.123456789Z', '2024-05-01T12:34:56.123Z', 123_456_789, 0],
    // More than nine digits: read, the rest truncated (not rounded).
    ['2024-05-01T12:34:56.1234567899Z', '2024-05-01T12:34:56.123Z', 123_456_789, 0],
    // Go accepts a comma before the fraction.
    ['2024-05-01T12:34:56,25Z', '2024-05-01T12:34:56.250Z', 250_000_000, 0],
    ['2024-05-01T14:34:56+02:00', '2024-05-01T12:34:56.000Z', 0, 7200],
    ['2024-05-01T00:30:00-01:45', '2024-05-01T02:15:00.000Z', 0, -6300],
    ['2024-12-31T23:00:00-01:00', '2025-01-01T00:00:00.000Z', 0, -3600],
    ['2024-05-01T12:00:00.75+05:30', '2024-05-01T06:30:00.750Z', 750_000_000, 19800],
    // Offsets up to 24 h / 60 min are accepted ("some people do write offsets of 24 hours").
    ['2024-05-01T12:00:00+24:00', '2024-04-30T12:00:00.000Z', 0, 86400],
    ['2024-05-01T12:00:00+23:60', '2024-04-30T12:00:00.000Z', 0, 86400],
    // A one-digit hour is accepted (the layout's hour is not zero-padded).
    ['2024-05-01T5:04:05Z', '2024-05-01T05:04:05.000Z', 0, 0],
    // Leap years: every 4th, not every 100th, every 400th.
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z', 0, 0],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z', 0, 0],
    // Day 31 in the months that have it.
    ['2024-01-31T00:00:00Z', '2024-01-31T00:00:00.000Z', 0, 0],
    ['2024-03-31T00:00:00Z', '2024-03-31T00:00:00.000Z', 0, 0],
    ['2024-08-31T00:00:00Z', '2024-08-31T00:00:00.000Z', 0, 0],
    ['2024-12-31T23:59:59Z', '2024-12-31T23:59:59.000Z', 0, 0],
    ['2023-02-28T23:59:59Z', '2023-02-28T23:59:59.000Z', 0, 0],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', 0, 0],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z', 0, 0],
    ['9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59.999Z', 999_999_999, 0],
  ];
  it.each(valid)('%s', (s, iso, nanos, offset) => {
    const parts = parseRfc3339Parts(s);
    expect(parts.date.toISOString()).toBe(iso);
    expect(parts.nanos).toBe(nanos);
    expect(parts.offsetSeconds).toBe(offset);
    expect(parts.seconds).toBe(Math.floor(parts.date.getTime() / 1000));
    expect(parseRfc3339(s).toISOString()).toBe(iso);
    expect(isRfc3339(s)).toBe(true);
  });

  const layout = '"2006-01-02T15:04:05Z07:00"';
  const cannot = (v: string, rest: string, elem: string) =>
    `parsing time "${v}" as ${layout}: cannot parse "${rest}" as "${elem}"`;
  const range = (v: string, what: string) => `parsing time "${v}": ${what} out of range`;
  // [input, Go's exact error text]
  const invalid: Array<[string, string]> = [
    ['', cannot('', '', '2006')],
    ['yesterday', cannot('yesterday', 'yesterday', '2006')],
    ['24-05-01T12:34:56Z', cannot('24-05-01T12:34:56Z', '24-05-01T12:34:56Z', '2006')],
    ['2024-05-01', cannot('2024-05-01', '', 'T')],
    // A space or lower-case t separator, a lower-case z: not RFC 3339 to Go.
    ['2024-05-01 12:34:56Z', cannot('2024-05-01 12:34:56Z', ' 12:34:56Z', 'T')],
    ['2024-05-01t12:34:56Z', cannot('2024-05-01t12:34:56Z', 't12:34:56Z', 'T')],
    ['2024-05-01T12:34:56z', cannot('2024-05-01T12:34:56z', 'z', 'Z07:00')],
    ['2024-05-01T12:34:56', cannot('2024-05-01T12:34:56', '', 'Z07:00')],
    ['2024-05-01T12:34:56.Z', cannot('2024-05-01T12:34:56.Z', '.Z', 'Z07:00')],
    ['2024-05-01T12:34:56+0200', cannot('2024-05-01T12:34:56+0200', '+0200', 'Z07:00')],
    ['2024-05-01T12:34:56*02:00', cannot('2024-05-01T12:34:56*02:00', '*02:00', 'Z07:00')],
    ['2024-5-01T12:34:56Z', cannot('2024-5-01T12:34:56Z', '5-01T12:34:56Z', '01')],
    ['2024-05-01T123:00:00Z', cannot('2024-05-01T123:00:00Z', '3:00:00Z', ':')],
    ['2024-05-01T12:3:00Z', cannot('2024-05-01T12:3:00Z', '3:00Z', '04')],
    ['2024-05-01T12:00:00Zjunk', 'parsing time "2024-05-01T12:00:00Zjunk": extra text: "junk"'],
    ['2024-05-01T12:00:00+01:00 ', 'parsing time "2024-05-01T12:00:00+01:00 ": extra text: " "'],
    ['2024-13-01T12:34:56Z', range('2024-13-01T12:34:56Z', 'month')],
    ['2024-00-01T12:34:56Z', range('2024-00-01T12:34:56Z', 'month')],
    ['2023-02-29T00:00:00Z', range('2023-02-29T00:00:00Z', 'day')],
    ['1900-02-29T00:00:00Z', range('1900-02-29T00:00:00Z', 'day')],
    ['2024-02-30T00:00:00Z', range('2024-02-30T00:00:00Z', 'day')],
    ['2024-04-31T00:00:00Z', range('2024-04-31T00:00:00Z', 'day')],
    ['2024-06-31T00:00:00Z', range('2024-06-31T00:00:00Z', 'day')],
    ['2024-09-31T00:00:00Z', range('2024-09-31T00:00:00Z', 'day')],
    ['2024-11-31T00:00:00Z', range('2024-11-31T00:00:00Z', 'day')],
    ['2024-05-00T00:00:00Z', range('2024-05-00T00:00:00Z', 'day')],
    ['2024-05-32T00:00:00Z', range('2024-05-32T00:00:00Z', 'day')],
    ['2024-05-01T24:00:00Z', range('2024-05-01T24:00:00Z', 'hour')],
    ['2024-05-01T12:60:00Z', range('2024-05-01T12:60:00Z', 'minute')],
    // No leap second: Go rejects second 60.
    ['2016-12-31T23:59:60Z', range('2016-12-31T23:59:60Z', 'second')],
    ['2024-05-01T12:00:00+25:00', range('2024-05-01T12:00:00+25:00', 'time zone offset hour')],
    ['2024-05-01T12:00:00+00:61', range('2024-05-01T12:00:00+00:61', 'time zone offset minute')],
    // Element by element: a range error beats a syntax error after it; the day is checked last.
    ['2024-13-01T12:00:00', range('2024-13-01T12:00:00', 'month')],
    ['2024-02-30T12:00:60Z', range('2024-02-30T12:00:60Z', 'second')],
    ['2024-02-30T12:00:00Zx', 'parsing time "2024-02-30T12:00:00Zx": extra text: "x"'],
    // Go quotes control and non-ASCII bytes as \xNN, and escapes quotes.
    ['é', String.raw`parsing time "\xc3\xa9" as ${layout}: cannot parse "\xc3\xa9" as "2006"`],
    ['"\n', String.raw`parsing time "\"\x0a" as ${layout}: cannot parse "\"\x0a" as "2006"`],
  ];
  it.each(invalid)('rejects %j', (s, message) => {
    expect(() => parseRfc3339(s)).toThrow(new TimeParseError(message));
    expect(isRfc3339(s)).toBe(false);
  });

  it('survives hostile input: huge, deep-digit and prototype-named strings', () => {
    const long = `2024-05-01T12:00:00.${'9'.repeat(1_000_000)}Z`;
    expect(parseRfc3339Parts(long).nanos).toBe(999_999_999);
    expect(isRfc3339('x'.repeat(1_000_000))).toBe(false);
    expect(isRfc3339('__proto__')).toBe(false);
    expect(isRfc3339('constructor')).toBe(false);
  });

  it('round-trips with formatRfc3339 and formatMicroTime', () => {
    const s = '2031-12-31T23:59:59Z';
    expect(formatRfc3339(parseRfc3339(s))).toBe(s);
    const m = '2031-12-31T23:59:59.123000Z';
    expect(formatMicroTime(parseRfc3339(m))).toBe(m);
  });
});

describe('formatRfc3339Parts (Protobuf Timestamp → JSON)', () => {
  const table: Array<[number, number, 'seconds' | 'micros', string]> = [
    [0, 0, 'seconds', '1970-01-01T00:00:00Z'],
    [1714566896, 987_654_321, 'seconds', '2024-05-01T12:34:56Z'],
    [1714566896, 987_654_321, 'micros', '2024-05-01T12:34:56.987654Z'],
    [1714566896, 999, 'micros', '2024-05-01T12:34:56.000000Z'],
    [1714566896, 1000, 'micros', '2024-05-01T12:34:56.000001Z'],
    [-62135596800, 0, 'seconds', '0001-01-01T00:00:00Z'],
    [253402300799, 999_999_999, 'micros', '9999-12-31T23:59:59.999999Z'],
  ];
  it.each(table)('%i s + %i ns (%s)', (seconds, nanos, precision, want) => {
    expect(formatRfc3339Parts({ seconds, nanos }, precision)).toBe(want);
    const back = parseRfc3339Parts(want);
    expect(back.seconds).toBe(seconds);
  });
});
