import { describe, expect, it } from 'vitest';
import { exceedsDepth } from './depth.js';

describe('exceedsDepth', () => {
  const nested = (d: number) => JSON.parse('['.repeat(d) + ']'.repeat(d));
  const cases: [string, unknown, number, boolean][] = [
    ['scalar', 1, 1, false],
    ['flat object at limit 1', { a: 1 }, 1, false],
    ['object in object over limit 1', { a: { b: 1 } }, 1, true],
    ['1000 levels at 1000', nested(1000), 1000, false],
    ['1001 levels at 1000', nested(1001), 1000, true],
    ['200 000 levels (beyond any recursion)', nested(200_000), 1000, true],
    ['wide but shallow (4 levels)', { a: Array.from({ length: 10_000 }, () => ({ b: [1] })) }, 4, false],
  ];
  it.each(cases)('%s', (_n, v, limit, expected) => {
    expect(exceedsDepth(v, limit)).toBe(expected);
  });
});
