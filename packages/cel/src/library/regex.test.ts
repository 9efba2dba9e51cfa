import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';
import { compileRegex, testWithoutCaptures } from './regex.js';

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

describe('testWithoutCaptures (re2js DFA route for a yes/no match)', () => {
  const patterns = [
    '^[a-z0-9./-]+:[a-zA-Z0-9._-]+$',
    '^h.*o$',
    'ell',
    '(a+)+$',
    '(?i)^abc$',
    '\\pL\\d',
    '^$',
    'x*',
  ];
  const inputs = [
    'registry.example.com/app:1.2',
    'hello',
    'HELLO',
    'abc',
    'ABC',
    'x1',
    '',
    'aaaa!',
    'ünï:cödé',
  ];

  it('answers as re2js test() for every pattern and input, and leaves the program as it was', () => {
    for (const p of patterns) {
      const re = compileRegex(p);
      const before = (re as unknown as { re2Input: { onepass: unknown } }).re2Input.onepass;
      for (const s of inputs) expect([p, s, testWithoutCaptures(re, s)]).toEqual([p, s, re.test(s)]);
      expect((re as unknown as { re2Input: { onepass: unknown } }).re2Input.onepass).toBe(before);
    }
  });

  it('relies on: re2js keeps a one-pass program on re2Input.onepass (else the fast path is inert; revisit src/library/regex.ts)', () => {
    const re = compileRegex('^[a-z]+:[0-9]+$') as unknown as { re2Input?: { onepass?: unknown } };
    expect(re.re2Input?.onepass ?? null).not.toBeNull();
  });
});
