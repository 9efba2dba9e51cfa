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
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
  it.each(['', '5', 's', '2x', '2s junk', '-1s'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/invalid duration/);
  });
});
