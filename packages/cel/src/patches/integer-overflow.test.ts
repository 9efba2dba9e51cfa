import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'integer-overflow';
const run = (expr: string) => compile(expr, createEnv({ variables: { d: 'dyn' } })).evaluate({ d: 1n });

describe(`patch ${P}`, () => {
  it('relies on: int(x) is a call with handle(args), unary minus is op -_ with handle(v), * with handle(l, r)', () => {
    const int = recordHandle(P, 'int(2.5)', (n) => n.op === 'call' && callName(n) === 'int');
    expectShape(P, (int[0]?.[0] as unknown[])?.[0] === 2.5, 'int(…) handle(args) with args[0] the double');
    const neg = recordHandle(P, '-dyn(3)', (n) => n.op === '-_');
    expectShape(P, neg[0]?.[0] === 3n, 'unary minus handle(v) with an int64 bigint');
    const mul = recordHandle(P, 'dyn(2) * 3', (n) => n.op === '*');
    expectShape(P, mul[0]?.[0] === 2n && mul[0]?.[1] === 3n, '* handle(l, r)');
  });

  it('fixes: int(1e19) and -(-2^63) leave int64 in the engine', () => {
    expectUpstream(P, rawOutcome('int(1e19)').value === 10n ** 19n, 'returns 10^19 for int(1e19)');
    expectUpstream(
      P,
      rawOutcome('-(dyn(-9223372036854775807) - 1)').value === 2n ** 63n,
      'returns 2^63 for -(-2^63)',
    );
    expect(() => run('int(1e19)')).toThrow(/overflow/);
    expect(() => run('-(dyn(-9223372036854775807) - 1)')).toThrow(/overflow/);
    expect(() => run('uint(-1.5)')).toThrow(/overflow/);
    expect(run('int(-9.2e18)')).toBe(-9200000000000000000n);
  });
});
