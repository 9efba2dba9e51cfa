import { describe, expect, it } from 'vitest';
import { humanDuration, translateTimestampSince } from './human-duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (upstream duration.HumanDuration)', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [5 * m + 7 * s, '5m7s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 2 * m, '3h2m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [2 * d + 5 * h, '2d5h'],
    [8 * d, '8d'],
    [400 * d, '400d'],
    [730 * d, '2y'],
    [800 * d, '2y70d'],
    [8 * 365 * d, '8y'],
    [20 * 365 * d, '20y'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('translates timestamps relative to now', () => {
    const now = Date.parse('2024-05-06T10:00:00Z');
    expect(translateTimestampSince('2024-05-06T07:00:00Z', now)).toBe('3h');
    expect(translateTimestampSince(undefined, now)).toBe('<unknown>');
    expect(translateTimestampSince('not a time', now)).toBe('<invalid>');
  });
});
