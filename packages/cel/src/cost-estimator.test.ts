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

describe('per-function costs as cel-go and upstream charge them', () => {
  // Figures from upstream's library cost tests (k8s.io/apiserver/pkg/cel/library, estimated max).
  it.each([
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3],
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 9],
    ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 9],
    ["'abc 123 def 123'.split(' ')", 3],
    ["'abc 123 def 123'.split(' ', 1)", 3],
    ["'abc 123 def 123'.substring(5)", 2],
    ["'abc 123 def 123'.substring(5, 8)", 2],
    ["'  abc 123 def 123  '.trim()", 2],
    ["'abc 123 def 123'.find('123')", 2],
    ["'abc 123 def 123'.findAll('123')", 2],
    ["'abc 123 def 123'.findAll('123', 1)", 2],
    ["url('https:://kubernetes.io/').getScheme()", 4],
    ["url('https:://kubernetes.io/').getHost()", 4],
  ])('%s costs %i', (expr, cost) => {
    expect(compile(expr, createEnv({})).estimatedCost.max).toBe(cost);
  });

  // cel-go's checker: a prefix or suffix test walks the argument, not the searched string.
  it.each([
    ['self.name.startsWith("hello")', 3],
    ['self.name.endsWith("hello")', 3],
    ['self.name.startsWith("0123456789abcdefghij")', 4],
  ])('%s costs %i whatever the length of the string searched', (expr, cost) => {
    expect(estimate(expr, schemaWith())).toBe(cost);
    expect(estimate(expr, schemaWith(1, 10))).toBe(cost);
  });

  it('accepts a prefix test over every element of an unbounded string list (refused before)', () => {
    const cost = estimate('self.names.all(t, t.startsWith("t-"))', schemaWith());
    expect(cost).toBeLessThan(StaticEstimatedCostLimit);
    // the list bound (3 MiB of two-byte strings) times a few units per element
    expect(cost).toBeGreaterThan(1_000_000);
  });

  it('charges contains by both lengths and comparisons of scalars by 1', () => {
    expect(estimate('self.name.contains("0123456789")', schemaWith(1, 100))).toBe(2 + 10 * 1);
    expect(estimate('self.counts["a"] > 0', schemaWith(1, 1))).toBe(4);
  });
});
