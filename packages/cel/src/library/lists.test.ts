import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';

const env = createEnv();
const run = (expr: string) => compile(expr, env).evaluate();

describe('lists library', () => {
  it.each([
    ['[1, 2, 3].indexOf(2)', 1n],
    ['[1, 2, 3].indexOf(4)', -1n],
    ['["a", "b", "b", "c"].lastIndexOf("b")', 2n],
    ['[1, 2, 3].lastIndexOf(5)', -1n],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ['[duration("1s"), duration("1m")].sum() == duration("61s")', true],
    ['[1, 2, 3].isSorted()', true],
    ['["a", "c", "b"].isSorted()', false],
    ['[].isSorted()', true],
    ['[3, 1, 2].min()', 1n],
    ['[3, 1, 2].max()', 3n],
    ['["b", "a"].min()', 'a'],
    ['[1.5, -2.0].min()', -2],
  ])('%s → %s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it.each([
    ['[].min()', /empty list/],
    ['[].max()', /empty list/],
    ['[9223372036854775807, 1].sum()', /overflow/],
    ['[1, "a"].isSorted()', /compare|overload/],
  ])('%s fails with %s', (expr, msg) => {
    const err = thrownBy(() => run(expr));
    expect(isCelError(err) && err.code).toBe('evaluation');
    expect((err as Error).message).toMatch(msg);
  });
});
