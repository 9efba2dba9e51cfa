import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'regex-matches';

describe(`patch ${P}`, () => {
  it('relies on: a.matches(b) is an rcall node whose handle(args, ev) gets [a, b] and the evaluator', () => {
    const calls = recordHandle(P, "'abc'.matches('b')", (n) => n.op === 'rcall' && callName(n) === 'matches');
    const [args, ev] = calls[0] as [unknown, { run?: unknown }];
    expectShape(P, JSON.stringify(args) === '["abc","b"]', 'handle(args, …) with args = [receiver, pattern]');
    expectShape(P, typeof ev?.run === 'function', 'handle(args, ev) with the evaluator second');
  });

  it('fixes: the engine matches with JavaScript RegExp (no RE2 syntax such as (?i))', () => {
    expectUpstream(
      P,
      /Invalid regular expression/.test(rawOutcome("'abc'.matches('(?i)B')").error ?? ''),
      'rejects (?i)',
    );
    expect(compile("'abc'.matches('(?i)B')", createEnv()).evaluate()).toBe(true);
    expect(compile("'a\\nb'.matches('^b$')", createEnv()).evaluate()).toBe(false); // RE2: ^ is text start
  });
});
