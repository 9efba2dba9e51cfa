import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { markList } from '../list-semantics.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'aggregate-equality';
const vars = { xs: 'list<int>', ys: 'list<int>' } as const;
const set = (...v: bigint[]) => markList(v, { type: 'set' });

describe(`patch ${P}`, () => {
  it('relies on: == and + on lists reach handle(l, r) with the arrays (marks kept)', () => {
    const xs = set(1n, 2n);
    const eq = recordHandle(P, 'xs == ys', (n) => n.op === '==', { xs, ys: [2n] }, vars);
    expectShape(P, eq[0]?.[0] === xs, '== handle(l, r) receives the activation array itself');
    const add = recordHandle(P, 'xs + ys', (n) => n.op === '+', { xs, ys: [2n] }, vars);
    expectShape(P, add[0]?.[0] === xs, '+ handle(l, r) receives the activation array itself');
  });

  it('fixes: the engine compares set lists in order and concatenates them', () => {
    const act = { xs: set(1n, 2n), ys: set(2n, 1n) };
    expectUpstream(P, rawOutcome('xs == ys', act, vars).value === false, 'compares set lists in order');
    const env = createEnv({ variables: vars });
    expect(compile('xs == ys', env).evaluate(act)).toBe(true);
    expect(compile('xs + ys', env).evaluate({ xs: set(1n, 2n), ys: set(2n, 3n) })).toEqual([1n, 2n, 3n]);
    expect(compile('dyn([1]) == dyn([1.0])', env).evaluate(act)).toBe(true);
  });
});
