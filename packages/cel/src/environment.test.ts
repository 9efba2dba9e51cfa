import { describe, expect, it } from 'vitest';
import { createCostTracker } from './cost-tracker.js';
import { compile, createEnv } from './environment.js';
import { type CelErrorCode, isCelError } from './errors.js';
import { PerCallLimit } from './limits.js';

function failure(f: () => unknown): { code: CelErrorCode; message: string; line?: number; column?: number } {
  try {
    f();
  } catch (e) {
    if (!isCelError(e)) throw e;
    return { code: e.code, message: e.message, line: e.position?.line, column: e.position?.column };
  }
  throw new Error('expected a CelError');
}

describe('compile', () => {
  const env = createEnv({
    variables: { x: 'int', name: 'string', obj: 'map<string, dyn>', xs: 'list<int>' },
  });

  it.each([
    ['x + 1', 'int'],
    ['name.startsWith("a")', 'bool'],
    ['xs.map(v, v * 2)', 'list<int>'],
    ['obj.a', 'dyn'],
  ])('type-checks %s as %s', (expr, type) => {
    expect(compile(expr, env).outputType).toBe(type);
  });

  it.each([
    ['x +', 'parse', 1, 4],
    ['x + "a"', 'type-check', 1, 1],
    ['y', 'type-check', 1, 1],
    ['name.nosuch()', 'type-check', 1, 1],
    ['x == 1 &&\n  nope', 'type-check', 2, 3],
  ] as const)('rejects %j with %s at %i:%i', (expr, code, line, column) => {
    const f = failure(() => compile(expr, env));
    expect(f.code).toBe(code);
    expect([f.line, f.column]).toEqual([line, column]);
  });

  it('enforces a required output type', () => {
    expect(failure(() => compile('x + 1', env, { outputType: 'bool' })).code).toBe('type-check');
  });

  it('records which declared variables an expression reads', () => {
    expect([...compile('x > 0 && xs.all(v, v < x)', env).references].sort()).toEqual(['x', 'xs']);
  });

  it('estimates when the estimate is read as when a limit needs it', () => {
    const expr = 'xs.all(a, xs.exists(b, a == b)) && name.size() > x';
    const eager = compile(expr, env, { estimatedCostLimit: Number.POSITIVE_INFINITY });
    expect(eager.estimatedCost.max).toBeGreaterThan(1_000);
    expect(compile(expr, env).estimatedCost).toEqual(eager.estimatedCost);
    const evaluatedFirst = compile(expr, env);
    expect(evaluatedFirst.evaluate({ xs: [1n, 2n], name: 'ab', x: 1n })).toBe(true);
    expect(evaluatedFirst.estimatedCost).toEqual(eager.estimatedCost);
  });

  it('rejects an expression over the estimated cost limit', () => {
    const f = failure(() => compile('xs.all(a, xs.all(b, a != b))', env, { estimatedCostLimit: 1_000 }));
    expect(f.code).toBe('estimated-cost-exceeded');
    expect(f.message).toMatch(/exceeds budget by factor of/);
  });
});

describe('compile over schema variables (typed check, evaluation AST on first use)', () => {
  const schema = {
    type: 'object' as const,
    properties: { a: { type: 'integer' as const }, s: { type: 'string' as const } },
  };
  const env = createEnv({ variables: { self: { schema }, oldSelf: { schema } } });

  it.each([
    // the estimate's undefined field comes before the typed check's overload error
    ['has(self.nosuch) || self.a + "x" == "1"', "undefined field 'nosuch'", 5],
    // a repeated map key comes before both
    ['{1: 2, 1: 3}.size() == 1 || self.a + "x" == "1"', 'duplicate map key: 1', 8],
    // the evaluation environment's check comes first
    ['nosuchfn(1) || self.nosuch == 1', "found no matching overload for 'nosuchfn(int)'", 1],
    ['self.a + "x" == "1"', 'no such overload: int + string', 1],
  ] as const)('reports the error the full pipeline meets first: %s', (expr, message, column) => {
    const f = failure(() => compile(expr, env));
    expect(f.code).toBe('type-check');
    expect(f.message).toContain(message);
    expect(f.column).toBe(column);
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty'])(
    'rejects the undeclared field %s on every compile (field lookups are cached per environment)',
    (field) => {
      for (let i = 0; i < 2; i++) {
        const f = failure(() => compile(`has(self.${field}) || self.${field} == 1`, env));
        expect(f.message).toContain(`undefined field '${field}'`);
      }
      expect(compile('self.a == 1', env).evaluate({ self: { a: 1n } })).toBe(true);
    },
  );

  it('types, references and evaluates as one program', () => {
    const program = compile('self.a < oldSelf.a && has(self.s)', env, { outputType: 'bool' });
    expect(program.outputType).toBe('bool');
    expect([...program.references].sort()).toEqual(['oldSelf', 'self']);
    const activation = { self: { a: 1n, s: 'x' }, oldSelf: { a: 2n } };
    // the same value and cost as the program of an environment without schemas (built eagerly)
    const plain = createEnv({ variables: { self: 'map<string, dyn>', oldSelf: 'map<string, dyn>' } });
    const eager = compile('self.a < oldSelf.a && has(self.s)', plain).evaluateWithCost(activation);
    expect(eager.value).toBe(true);
    expect(program.evaluateWithCost(activation)).toEqual(eager);
    expect(program.evaluate({ self: { a: 3n }, oldSelf: { a: 2n } })).toBe(false);
  });
});

describe('evaluate', () => {
  const env = createEnv({ variables: { x: 'int', obj: 'dyn', xs: 'list<int>' } });

  it.each([
    ['9223372036854775807 + 1', /overflow/],
    ['-9223372036854775808 - 1', /overflow/],
    ['x / 0', /division by zero/],
    ['x % 0', /modulus by zero|modulo by zero|division by zero/],
    ['obj.missing', /No such key: missing/],
    ['int("abc")', /int/],
    ['optional.none().value()', /optional/i],
  ])('%s fails with an evaluation error', (expr, msg) => {
    const f = failure(() => compile(expr, env).evaluate({ x: 1n, obj: {}, xs: [] }));
    expect(f.code).toBe('evaluation');
    expect(f.message).toMatch(msg);
  });

  it.each([
    ['has(obj.a)', { a: 1n }, true],
    ['has(obj.b)', { a: 1n }, false],
    ['has(obj.a.b)', { a: { b: 'x' } }, true],
    ['optional.of(1).hasValue()', {}, true],
    ['optional.none().orValue(5)', {}, 5n],
    ['obj.?a.orValue(0)', { a: 7n }, 7n],
    ['obj.?b.orValue(0)', { a: 7n }, 0n],
    ['obj.?a.value()', { a: 'v' }, 'v'],
    ['[1, 2][?5].hasValue()', {}, false],
    ['{"k": 1}[?"k"].value()', {}, 1n],
    ['optional.none().or(optional.of(2)).value()', {}, 2n],
    ['optional.ofNonZeroValue(0).hasValue()', {}, false],
    ['optional.ofNonZeroValue("").hasValue()', {}, false],
    ['optional.ofNonZeroValue([1]).hasValue()', {}, true],
  ])('%s → %s', (expr, obj, want) => {
    expect(compile(expr, env).evaluate({ x: 0n, obj, xs: [] })).toEqual(want);
  });

  it('reports the cost it spent', () => {
    const r = compile('xs.all(v, v > 0)', env).evaluateWithCost({ x: 0n, obj: {}, xs: [1n, 2n, 3n] });
    expect(r.value).toBe(true);
    expect(r.cost).toBeGreaterThan(3);
  });

  it('halts a nested comprehension over a large list with a cost error', () => {
    const xs = Array.from({ length: 3_000 }, (_, i) => BigInt(i));
    const f = failure(() =>
      compile('xs.all(a, xs.all(b, a != b || a == b))', env).evaluate({ x: 0n, obj: {}, xs }),
    );
    expect(f.code).toBe('cost-budget-exceeded');
    expect(f.message).toMatch(new RegExp(`limit ${PerCallLimit}`));
  });

  it('honours a smaller per-call budget', () => {
    const p = compile('xs.exists(v, v == 99)', env);
    const xs = Array.from({ length: 100 }, (_, i) => BigInt(i));
    expect(p.evaluate({ x: 0n, obj: {}, xs })).toBe(true);
    expect(failure(() => p.evaluate({ x: 0n, obj: {}, xs }, { costBudget: 50 })).code).toBe(
      'cost-budget-exceeded',
    );
  });

  it('charges a shared tracker across evaluations and stops when it runs out', () => {
    const p = compile('xs.all(v, v >= 0)', env);
    const xs = Array.from({ length: 100 }, (_, i) => BigInt(i));
    const tracker = createCostTracker(1_000);
    let runs = 0;
    const f = failure(() => {
      for (;;) {
        p.evaluate({ x: 0n, obj: {}, xs }, { tracker });
        runs++;
      }
    });
    expect(f.code).toBe('cost-budget-exceeded');
    expect(runs).toBeGreaterThan(0);
    expect(tracker.remaining()).toBeLessThan(400);
  });

  it('does not let `||` absorb an exhausted budget', () => {
    const xs = Array.from({ length: 3_000 }, (_, i) => BigInt(i));
    const p = compile('xs.all(a, xs.all(b, a != b || a == b)) || true', env);
    expect(failure(() => p.evaluate({ x: 0n, obj: {}, xs })).code).toBe('cost-budget-exceeded');
  });
});

describe('unchecked compile ({ check: false })', () => {
  const env = createEnv({ variables: { x: 'int' } });
  const run = (expr: string, activation: Record<string, unknown> = {}) =>
    compile(expr, env, { check: false }).evaluate(activation);

  it.each([
    ['1.0 == 1', true],
    ['2u != 2', false],
    ['[1] == [1.0]', true],
    ["['one'] == [2, 3]", false],
    ["true ? 'cows' : 17", 'cows'],
    ['false && 32', false],
    ["'horses' || true", true],
    ['f_unknown(17) || true', true],
    ['nope || true', true],
    ['a.while() || true', true],
  ])('%s → %j (the checker would reject it; runtime dispatch decides)', (expr, want) => {
    expect(failure(() => compile(expr, env)).code).toBe('type-check');
    expect(run(expr)).toEqual(want);
  });

  it('reads undeclared identifiers from the activation', () => {
    expect(run('y + 1', { y: 41n })).toBe(42n);
    expect(run('x * 2', { x: 4n })).toBe(8n);
    expect(failure(() => run('y + 1')).message).toMatch(/Unknown variable: y/);
  });

  it.each([
    ["'foo' < 1024", /no such overload/],
    ['-(42u)', /no such overload/],
    ['f_unknown(17)', /f_unknown/],
    ["'cows' ? false : 17", /condition/],
    ['{1.0: 5}[1.0]', /unsupported map key type/],
  ])('%s fails when evaluated, not when compiled', (expr, msg) => {
    const p = compile(expr, env, { check: false });
    expect(p.outputType).toBe('dyn');
    const f = failure(() => p.evaluate({}));
    expect(f.code).toBe('evaluation');
    expect(f.message).toMatch(msg);
  });

  it('still reports parse errors at compile time', () => {
    expect(failure(() => compile('1 +', env, { check: false })).code).toBe('parse');
  });

  it('leaves the checked mode of the same environment strict', () => {
    compile('f_unknown(1) || true', env, { check: false });
    expect(failure(() => compile('f_unknown(1) || true', env)).code).toBe('type-check');
  });
});

describe('unresolved type parameters are dyn', () => {
  const env = createEnv();
  it.each([
    ['[].all(e, e > 0)', true],
    ['[].exists(i, v, i > -1 || v > 0)', false],
    ['{}.transformMap(k, v, k + v)', {}],
    ['optional.none().?x.hasValue()', false],
    ['optional.none()[?0].hasValue()', false],
    ['{}.?k.invalid.hasValue()', false],
  ])('%s', (expr, want) => {
    expect(compile(expr, env).evaluate()).toEqual(want);
  });

  it.each([
    ['[[], [[]], [[[]]]]', 'list<list<list<list<dyn>>>>'],
    ['([].map(x, x))[0].foo', 'dyn'],
    ['[optional.none(), optional.of(1)]', 'list<optional<int>>'],
    ['[1] + []', 'list<int>'],
    ['[optional.of(1), null][0]', 'optional<int>'],
    ['true ? null : optional.of("a")', 'optional<string>'],
    ['[1, null]', 'list'],
  ])('%s has type %s', (expr, type) => {
    expect(compile(expr, env).outputType).toBe(type);
  });
});

describe('map literals with non-string keys', () => {
  const env = createEnv();
  it.each([
    ["{6: 'six', 7: 'seven'}.exists_one(k, k % 5 == 2)", true],
    ["{1: 'a'}[1u]", 'a'],
    ["{1u: 'a'}[1.0]", 'a'],
    ["{true: 'y'}[true]", 'y'],
    ['2.0 in {1: 0, 2u: 0}', true],
    ['{1: 1.0, 2u: 3u} == {1u: 1, 2: 3.0}', true],
    ["{1: 'a'}[?1u].value()", 'a'],
  ])('%s', (expr, want) => {
    expect(compile(expr, env).evaluate()).toEqual(want);
  });

  it('keeps the key types', () => {
    const m = compile("{1: 'a', true: 'b'}", env).evaluate() as Map<unknown, unknown>;
    expect([...m.keys()]).toEqual([1n, true]);
    expect(compile("{'a': 1}", env).evaluate()).toEqual({ a: 1n });
  });

  it('fails on a key repeated at runtime', () => {
    const dup = createEnv({ variables: { x: 'int' } });
    expect(() => compile('{x: 1, 1: 2}', dup).evaluate({ x: 1n })).toThrow(/repeated key/);
  });
});

describe('optional and timestamp corrections', () => {
  const env = createEnv();
  it.each([
    ['type(optional.none()) == optional_type', true],
    ['type(optional.of(1)) == optional_type', true],
    ['type(optional.of(1)) == type(1)', false],
    ["duration('120s') + timestamp('2009-02-13T23:01:00Z') == timestamp('2009-02-13T23:03:00Z')", true],
    ["{'k': {'f': 1}}.?k.f.value()", 1n],
    ["{'k': {'a': 1}}.?j.a.hasValue()", false],
  ])('%s', (expr, want) => {
    expect(compile(expr, env).evaluate()).toEqual(want);
  });

  it.each(["{'k': dyn(null)}.?k.invalid.hasValue()", '{true: dyn(0)}[?true].absent.hasValue()'])(
    '%s: a field of a present non-map optional value is an error',
    (expr) => {
      expect(() => compile(expr, env).evaluate()).toThrow(/No such key/);
    },
  );
});

describe('declared functions', () => {
  const env = createEnv({
    variables: { s: 'string' },
    functions: {
      'fn(string, int): string': (a: string, n: bigint) => a.repeat(Number(n)),
      'string.shout(): string': (a: string) => `${a.toUpperCase()}!`,
    },
  });

  it('type-checks and calls them', () => {
    expect(compile("fn('ab', 2)", env).outputType).toBe('string');
    expect(compile("fn('ab', 2)", env).evaluate({ s: '' })).toBe('abab');
    expect(compile('s.shout()', env).evaluate({ s: 'hi' })).toBe('HI!');
    expect(failure(() => compile("fn('ab', 'x')", env)).code).toBe('type-check');
  });

  it('rejects a malformed signature', () => {
    expect(failure(() => createEnv({ functions: { 'fn(': () => 1 } })).code).toBe('invalid-argument');
  });
});
