import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { compile, createEnv } from './environment.js';
import { StaticEstimatedCostLimit } from './limits.js';
import { toCelValue } from './types.js';

function schemaWith(maxItems?: number, maxLength?: number): StructuralSchema {
  const str: StructuralSchema = maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength };
  const list: StructuralSchema =
    maxItems === undefined ? { type: 'array', items: str } : { type: 'array', items: str, maxItems };
  return {
    type: 'object',
    properties: {
      name: str,
      names: list,
      counts: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        ...(maxItems === undefined ? {} : { maxProperties: maxItems }),
      },
    },
  };
}

const estimate = (expr: string, schema: StructuralSchema) =>
  compile(expr, createEnv({ variables: { self: { schema } } })).estimatedCost.max;

describe('static cost estimate', () => {
  it.each([
    'self.name.matches("^[a-z]+$")',
    'self.names.all(n, n.startsWith("x"))',
    'self.names.exists(a, self.names.exists(b, a == b))',
    'self.counts.all(k, self.counts[k] > 0)',
    'self.name + self.name == "x"',
    'self.names.map(n, n + "x").size() > 0',
  ])('grows with maxItems/maxLength and is bounded once they are set: %s', (expr) => {
    const small = estimate(expr, schemaWith(10, 10));
    const large = estimate(expr, schemaWith(1000, 1000));
    const unbounded = estimate(expr, schemaWith(undefined, undefined));
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThan(large);
    expect(large).toBeLessThan(unbounded);
  });

  it('puts a nested loop over unbounded lists above the per-rule limit, and a bounded one below', () => {
    const expr = 'self.names.all(a, self.names.all(b, a != b))';
    expect(estimate(expr, schemaWith())).toBeGreaterThan(StaticEstimatedCostLimit);
    expect(estimate(expr, schemaWith(100, 64))).toBeLessThan(StaticEstimatedCostLimit);
  });

  it('charges regexes by input length times pattern length', () => {
    const short = estimate('self.name.matches("a")', schemaWith(1, 1000));
    const long = estimate(
      'self.name.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")',
      schemaWith(1, 1000),
    );
    expect(long).toBeGreaterThan(short * 5);
  });

  it.each([
    ['self.names.all(n, n.matches("^[a-z]+$"))'],
    ['self.names.exists(a, self.names.exists(b, a + b == "zz"))'],
    ['self.counts.all(k, self.counts[k] >= 0)'],
  ])('bounds the actual cost of the worst-case input: %s', (expr) => {
    const schema = schemaWith(20, 30);
    const program = compile(expr, createEnv({ variables: { self: { schema } } }));
    const worst = toCelValue(
      {
        name: 'a'.repeat(30),
        names: Array.from({ length: 20 }, (_, i) => `${'a'.repeat(28)}${String(i).padStart(2, '0')}`),
        counts: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
      },
      schema,
    );
    const { cost } = program.evaluateWithCost({ self: worst });
    expect(cost).toBeLessThanOrEqual(program.estimatedCost.max);
  });
});
