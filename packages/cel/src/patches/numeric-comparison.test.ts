import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'numeric-comparison';
const run = (expr: string) => compile(expr, createEnv()).evaluate();

describe(`patch ${P}`, () => {
  it('relies on: < gets (bigint, number); [] gets (array, UnsignedInt); in gets (value, array)', () => {
    const lt = recordHandle(P, 'dyn(1) < 1.5', (n) => n.op === '<');
    expectShape(P, lt[0]?.[0] === 1n && lt[0]?.[1] === 1.5, 'int is bigint, double is number');
    const idx = recordHandle(P, '[1, 2][dyn(1u)]', (n) => n.op === '[]');
    expectShape(P, Array.isArray(idx[0]?.[0]) && idx[0]?.[1] instanceof UnsignedInt, 'uint is UnsignedInt');
    const inList = recordHandle(P, 'dyn(1u) in [1]', (n) => n.op === 'in');
    expectShape(P, Array.isArray(inList[0]?.[1]), 'in handle(l, r) with the list second');
  });

  it('fixes: exact bigint/double comparison, no cross-type in, no uint list index', () => {
    expectUpstream(
      P,
      rawOutcome('dyn(9007199254740993) <= 9007199254740992.0').value === false,
      'compares int and double exactly',
    );
    expectUpstream(P, rawOutcome('dyn(1u) in [1]').value === false, 'misses 1u in [1]');
    expectUpstream(
      P,
      /List index must be int/.test(rawOutcome('[1, 2][1u]').error ?? ''),
      'rejects a uint index',
    );
    expect(run('dyn(9007199254740993) <= 9007199254740992.0')).toBe(true);
    expect(run('dyn(1u) in [1]')).toBe(true);
    expect(run('dyn(1.0) in [1]')).toBe(true);
    expect(run('[1, 2][dyn(1u)]')).toBe(2n);
  });
});
