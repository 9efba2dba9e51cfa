import { describe, expect, it } from 'vitest';
import {
  formatMicroTime,
  formatRfc3339,
  isRfc3339,
  nowMicroTime,
  nowRfc3339,
  parseRfc3339,
  parseRfc3339Parts,
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

describe('parseRfc3339', () => {
  const valid: Array<[string, string, number]> = [
    ['2024-05-01T12:34:56Z', '2024-05-01T12:34:56.000Z', 0],
    ['2024-05-01T12:34:56.5Z', '2024-05-01T12:34:56.500Z', 500_000_000],
    ['2024-05-01T12:34:56.123456Z', '2024-05-01T12:34:56.123Z', 123_456_000],
    ['2024-05-01T12:34:56.123456789Z', '2024-05-01T12:34:56.123Z', 123_456_789],
    ['2024-05-01T14:34:56+02:00', '2024-05-01T12:34:56.000Z', 0],
    ['2024-05-01T00:30:00-01:45', '2024-05-01T02:15:00.000Z', 0],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z', 0],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z', 0],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', 0],
  ];
  it.each(valid)('%s', (s, iso, nanos) => {
    expect(parseRfc3339(s).toISOString()).toBe(iso);
    expect(parseRfc3339Parts(s).nanos).toBe(nanos);
    expect(isRfc3339(s)).toBe(true);
  });
  const invalid: Array<[string, string]> = [
    ['', 'cannot parse'],
    ['2024-05-01', 'cannot parse'],
    ['2024-05-01 12:34:56Z', 'cannot parse'],
    ['2024-05-01t12:34:56Z', 'cannot parse'],
    ['2024-05-01T12:34:56z', 'cannot parse'],
    ['2024-05-01T12:34:56', 'cannot parse'],
    ['2024-05-01T12:34:56.Z', 'cannot parse'],
    ['2024-05-01T12:34:56+0200', 'cannot parse'],
    ['24-05-01T12:34:56Z', 'cannot parse'],
    ['2024-13-01T12:34:56Z', 'month out of range'],
    ['2024-00-01T12:34:56Z', 'month out of range'],
    ['2023-02-29T00:00:00Z', 'day out of range'],
    ['1900-02-29T00:00:00Z', 'day out of range'],
    ['2024-04-31T00:00:00Z', 'day out of range'],
    ['2024-05-01T24:00:00Z', 'hour out of range'],
    ['2024-05-01T12:60:00Z', 'minute out of range'],
    ['2024-05-01T12:00:60Z', 'second out of range'],
    ['2024-05-01T12:00:00+24:00', 'time zone offset out of range'],
  ];
  it.each(invalid)('rejects %j (%s)', (s, why) => {
    expect(() => parseRfc3339(s)).toThrow(
      `parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05Z07:00": ${why}`,
    );
    expect(isRfc3339(s)).toBe(false);
  });
  it('round-trips with formatRfc3339 and formatMicroTime', () => {
    const s = '2031-12-31T23:59:59Z';
    expect(formatRfc3339(parseRfc3339(s))).toBe(s);
    const m = '2031-12-31T23:59:59.123000Z';
    expect(formatMicroTime(parseRfc3339(m))).toBe(m);
  });
});
