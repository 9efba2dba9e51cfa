import { describe, expect, it } from 'vitest';
import { canonical } from './canonical.js';

describe('canonical', () => {
  const same: [unknown, unknown][] = [
    [
      { a: 1, b: [1, 'x'] },
      { b: [1, 'x'], a: 1 },
    ],
    ['1', '1'],
    [null, null],
  ];
  const different: [unknown, unknown][] = [
    ['1', 1],
    [true, 'true'],
    [null, 'null'],
    [
      [1, 2],
      [2, 1],
    ],
    [{ a: '1' }, { a: 1 }],
    ['a,b', ['a', 'b']],
    [undefined, 'u'],
    [['a,sb'], ['a', 'b']],
    [['a","b'], ['a', 'b']],
  ];
  it.each(same)('%j ≡ %j', (a, b) => expect(canonical(a)).toBe(canonical(b)));
  it.each(different)('%j ≢ %j', (a, b) => expect(canonical(a)).not.toBe(canonical(b)));
});
