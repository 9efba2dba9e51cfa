import { describe, expect, it } from 'vitest';
import { compile, createEnv, type Program } from '../environment.js';
import { isCelError } from '../errors.js';
import { costRegionOptions } from './cost-regions.js';
import { expectShape, findNode, rawAst } from './raw-engine.js';

const P = 'cost-regions';

/** Value or error code, and cost, of one evaluation: `perNode` forces the exact (reference) pass. */
function outcome(program: Program, activation: Record<string, unknown>, budget: number, perNode: boolean) {
  costRegionOptions.perNodeOnly = perNode;
  try {
    const r = program.evaluateWithCost(activation, { costBudget: budget });
    return { value: r.value, cost: r.cost };
  } catch (e) {
    return { error: isCelError(e) ? e.code : String(e) };
  } finally {
    costRegionOptions.perNodeOnly = false;
  }
}

describe(`patch ${P}`, () => {
  it('relies on: the node fields each operator evaluates its children from', () => {
    const { root } = rawAst("m.a + 1 > 2 && [1].exists(x, x > m.b) ? 'a'.size() : -m['c']", {
      m: 'map<string, int>',
    });
    const ternary = findNode(P, root, (n) => n.op === '?:') as unknown as Record<string, unknown>;
    expectShape(
      P,
      ternary.condition !== undefined && ternary.left !== undefined,
      '?: has condition/left/right',
    );
    const and = findNode(P, root, (n) => n.op === '&&') as unknown as Record<string, unknown>;
    expectShape(P, and.left !== undefined && and.right !== undefined, '&& has left/right');
    const plus = findNode(P, root, (n) => n.op === '+') as unknown as Record<string, unknown>;
    expectShape(P, plus.left === (plus.args as unknown[])[0], 'binary operators evaluate left = args[0]');
    const rcall = findNode(P, root, (n) => n.op === 'rcall' && !n.meta.alternate) as unknown as Record<
      string,
      unknown
    >;
    expectShape(P, Array.isArray(rcall.receiverWithArgs), 'rcall evaluates receiverWithArgs');
    const comp = findNode(P, root, (n) => n.op === 'comprehension');
    const args = comp.args as Record<string, unknown>;
    expectShape(
      P,
      args.iterable !== undefined && args.init !== undefined,
      'comprehension iterable/init/step',
    );
  });

  const env = createEnv({ variables: { xs: 'list<int>', m: 'map<string, dyn>' } });
  const activation = { xs: Array.from({ length: 20 }, (_, i) => BigInt(i)), m: { a: 1n, s: 'abc' } };
  const cases = [
    'xs.all(x, x >= 0) && m.a == 1',
    "xs.map(x, x * 2).filter(y, y > 3).size() + size(m.s + 'def')",
    'xs.exists(x, x / (x - 3) > 100)', // an error absorbed by exists
    '(1 / 0 > 1) || m.a == 1', // an error absorbed by ||
    "has(m.a) ? m.s.matches('^a') : false",
    "{'k': xs, 'l': [m.a, m.a]}.size() > 1",
    'xs.all(x, xs.all(y, x + y >= 0))',
    'm.missing == 1',
  ];
  for (const expr of cases) {
    it(`charges what the per-node hook charges: ${expr}`, () => {
      const program = compile(expr, env);
      for (const budget of [1_000_000, 1, 5, 40, 300]) {
        expect(outcome(program, activation, budget, false), `budget ${budget}`).toEqual(
          outcome(program, activation, budget, true),
        );
      }
    });
  }

  it('stops a nested loop soon after the budget runs out', () => {
    let calls = 0;
    const counted = createEnv({
      variables: { xs: 'list<int>' },
      functions: {
        'tick(int): bool': () => {
          calls++;
          return true;
        },
      },
    });
    const program = compile('xs.all(x, xs.all(y, tick(y)))', counted);
    const xs = Array.from({ length: 300 }, (_, i) => BigInt(i));
    expect(outcome(program, { xs }, 2_000, false)).toEqual({ error: 'cost-budget-exceeded' });
    // 90,000 calls without a budget; both passes stop within the budget's reach
    expect(calls).toBeLessThan(2_000);
  });
});
