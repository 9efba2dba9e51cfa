import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { captureEvaluator, evaluatorProbeKey, registerProbe } from './cost-hook.js';
import { expectShape, expectUpstream, rawEnvironment } from './raw-engine.js';

const P = 'cost-hook';
const heavyExpression = '[1, 2, 3, 4, 5, 6, 7, 8].map(x, [1, 2, 3, 4, 5, 6, 7, 8].map(y, x * y)).size()';

describe(`patch ${P}`, () => {
  it('relies on: a registered function runs with the evaluator as this; run(ast, ctx) evaluates each node', () => {
    const env = rawEnvironment();
    let self: { run?: unknown } | undefined;
    env.registerFunction(`${evaluatorProbeKey}(): bool`, function (this: { run?: unknown }) {
      self = this;
      return true;
    });
    env.evaluate(`${evaluatorProbeKey}()`);
    expectShape(P, typeof self?.run === 'function', 'this.run(ast, ctx) in a registered function');
    const ev = self as { run(a: { evaluate: unknown }, c: unknown): unknown };
    const inner = ev.run;
    let nodes = 0;
    ev.run = function (a, c) {
      nodes++;
      return inner.call(this, a, c);
    };
    expect(env.evaluate('1 + 2 * 3')).toBe(7n);
    expectShape(P, nodes >= 3, 'every child evaluation goes through evaluator.run');
  });

  it('captures the evaluator of a cloned environment', () => {
    const base = rawEnvironment();
    registerProbe(base);
    expectShape(
      P,
      typeof captureEvaluator(base.clone()).run === 'function',
      'clone() keeps registered functions',
    );
  });

  it('fixes: the engine evaluates without a cost limit', () => {
    expectUpstream(P, rawEnvironment().evaluate(heavyExpression) === 8n, 'evaluates the heavy expression');
    const program = compile(heavyExpression, createEnv());
    expect(program.evaluate()).toBe(8n);
    try {
      program.evaluate({}, { costBudget: 20 });
      expect.unreachable();
    } catch (e) {
      expect(isCelError(e) && e.code).toBe('cost-budget-exceeded');
    }
    expect(program.evaluateWithCost().cost).toBeGreaterThan(64);
  });
});
