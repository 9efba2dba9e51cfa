import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['2s', 2000],
    ['5m', 300_000],
    ['1m30s', 90_000],
    ['300ms', 300],
    ['1.5h', 5_400_000],
    ['0', 0],
    ['.5s', 500],
    ['1m0s', 60_000],
    ['2500us', 3],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
  it.each(['', '5', 's', '2x', '2s junk', '-1s'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/invalid duration/);
  });
  it("says why, in Go's words", () => {
    expect(() => parseDuration('5')).toThrow('time: missing unit in duration "5"');
    expect(() => parseDuration('1d')).toThrow('time: unknown unit "d" in duration "1d"');
    expect(() => parseDuration('-1s')).toThrow('must not be negative');
  });
});
