import { describe, expect, it } from 'vitest';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

// RFC 7386 Appendix A, every example.
const rfc7386: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('RFC 7386 appendix A', () => {
  it.each(rfc7386.map((c, i) => [i + 1, ...c]))('example %i', (_i, target, patch, result) => {
    const before = JSON.stringify(target);
    expect(applyMergePatch(target, patch)).toEqual(result);
    expect(JSON.stringify(target)).toBe(before);
  });
});

describe('createMergePatch', () => {
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: { c: 2, d: 3 } },
      { a: 1, b: { c: 4 }, e: [1] },
    ],
    [{ a: [1, 2] }, { a: [2] }],
    [{ x: { y: 1 } }, { x: 'scalar' }],
  ];
  it.each(cases)('round-trips %j → %j', (from, to) => {
    const p = createMergePatch(from, to);
    expect(applyMergePatch(from, p)).toEqual(to);
  });
});
