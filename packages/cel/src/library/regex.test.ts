import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';

const env = createEnv({ variables: { s: 'string', l: 'list<string>' } });
const run = (expr: string, vars: Record<string, unknown> = {}) => compile(expr, env).evaluate(vars);

describe('regex library (RE2)', () => {
  it.each([
    ["'hello'.matches('^h.*o$')", true],
    ["'hello'.matches('ell')", true],
    ["matches('hello', 'x')", false],
    ["'123 abc 456'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
    ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
    ["'abc'.findAll('[0-9]+')", []],
    ["'aaa'.findAll('a*')", ['aaa', '']],
    // RE2 syntax that JavaScript RegExp does not share
    ["'ABC'.matches('(?i)abc')", true],
    ["'x1'.matches('\\\\pL\\\\d')", true],
  ])('%s → %j', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it('rejects an invalid pattern', () => {
    const err = thrownBy(() => run("'a'.matches('[')"));
    expect(isCelError(err) && err.code).toBe('evaluation');
    expect((err as Error).message).toMatch(/invalid regular expression/);
  });

  it('matches a catastrophic-backtracking pattern in linear time', () => {
    // (a+)+$ against a…a! backtracks exponentially in JavaScript RegExp; RE2 answers at once
    expect(run('s.matches("(a+)+$")', { s: `${'a'.repeat(5000)}!` })).toBe(false);
  });

  it('halts a regex over a huge input on the cost budget, before matching', () => {
    const err = thrownBy(() => {
      run('l.exists(x, x.matches("(a+)+$"))', {
        l: Array.from({ length: 50 }, () => `${'a'.repeat(200_000)}!`),
      });
    });
    expect(isCelError(err) && err.code).toBe('cost-budget-exceeded');
  });
});
