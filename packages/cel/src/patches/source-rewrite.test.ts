import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { decodeBytesLiteral } from './bytes-literals.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome } from './raw-engine.js';
import { preprocess } from './source-rewrite.js';

const env = createEnv({ variables: { m: 'map<string, dyn>', xs: 'list<int>', x: 'int' } });
const run = (expr: string, activation: Record<string, unknown> = {}) =>
  compile(expr, env).evaluate({ m: {}, xs: [], x: 0n, ...activation });

describe('decodeBytesLiteral', () => {
  it.each([
    ['abc', [97, 98, 99]],
    ['ÿ', [0xc3, 0xbf]],
    ['\\303\\277', [0xc3, 0xbf]],
    ['\\xff\\X00', [0xff, 0]],
    ['\\n\\t\\\\\\"', [10, 9, 92, 34]],
    ['😀', [0xf0, 0x9f, 0x98, 0x80]],
  ])('%j → %j', (content, want) => {
    expect([...(decodeBytesLiteral(content) as Uint8Array)]).toEqual(want);
  });

  it.each(['\\u00ff', '\\x1', '\\400', '\\q', '\\'])('%j is invalid', (content) => {
    expect(decodeBytesLiteral(content)).toBeUndefined();
  });
});

describe('preprocess', () => {
  it('leaves ordinary expressions alone', () => {
    for (const e of ['a.b[0] + 1.5', "x ? 'a' : `b`", 'm[?"k"]', "f(r'`x`', b'\\x00') // .5 `q`"]) {
      const p = preprocess(e);
      expect(p.source).toBe(e);
      expect(p.changed).toBe(false);
    }
  });

  it('does not touch string contents or comments', () => {
    const e = "'[?x] .5 `a`' + \"br'x'\" // [?y] .5\n + 1";
    expect(preprocess(e).source).toBe(e);
  });

  it('keeps lengths except for an inserted leading zero', () => {
    const e = "a.`b-c` + br'\\n' + [?x]";
    expect(preprocess(e).source).toHaveLength(e.length);
    const p = preprocess('x < .5');
    expect(p.source).toBe('x < 0.5');
    expect(p.toOriginal(7)).toBe(6);
    expect(p.toOriginal(2)).toBe(2);
  });
});

describe('bytes literals', () => {
  it.each([
    ["b'ÿ'", [0xc3, 0xbf]],
    ["b'ÿ' == b'\\303\\277'", true],
    ["br'\\n\\x00'", [92, 110, 92, 120, 48, 48]],
    ['BR"""a\'b"""', [97, 39, 98]],
    ["Rb'ÿ'", [0xc3, 0xbf]],
  ])('%s', (expr, want) => {
    const v = run(expr);
    expect(v instanceof Uint8Array ? [...v] : v).toEqual(want);
  });
});

describe('backtick-quoted field names', () => {
  const m = { 'a-b': 1n, 'a.b': 2n, 'a/b': 3n, 'with space': 4n };
  it.each([
    ['m.`a-b`', 1n],
    ['m.`a.b`', 2n],
    ['m.`a/b`', 3n],
    ['m.`with space`', 4n],
    ['has(m.`a-b`)', true],
    ['has(m.`c-d`)', false],
    ['m.?`a.b`.orValue(0)', 2n],
  ])('%s', (expr, want) => {
    expect(run(expr, { m })).toEqual(want);
  });

  it('is a parse error outside a field selection', () => {
    expect(() => compile('`a-b`', env)).toThrow(/Unexpected character/);
  });
});

describe('double literals without a leading digit', () => {
  it.each([
    ['.5 + .25', 0.75],
    ['[.5][0]', 0.5],
    ['-.5e1', -5],
  ])('%s', (expr, want) => {
    expect(run(expr)).toBe(want);
  });

  it('reports positions in the original expression', () => {
    try {
      compile('.5 + "a"', env);
      expect.unreachable();
    } catch (e) {
      expect(isCelError(e) && e.position).toMatchObject({ start: 0, column: 1 });
    }
  });
});

describe('optional entries in list and map literals', () => {
  it.each([
    ['[?optional.of(1), 2, ?optional.none()]', [1n, 2n]],
    ['[?m.?a, ?m.?b]', [7n]],
    ['size([?optional.none()])', 0n],
    ["{?'a': optional.of(1), 'b': 2}", { a: 1n, b: 2n }],
    ["{?'a': optional.none(), 'b': 2}", { b: 2n }],
    ["has({?'a': optional.none()}.a)", false],
    ['[x > 0 ? 1 : 2]', [2n]],
    ['xs[?0].hasValue()', false],
  ])('%s', (expr, want) => {
    expect(run(expr, { m: { a: 7n } })).toEqual(want);
  });

  it('requires an optional value in an optional entry', () => {
    expect(() => compile('[?1]', env)).toThrow(/optional entry must be an optional value/);
    expect(() => compile("{?'a': 1}", env)).toThrow(/optional entry must be an optional value/);
  });
});

describe('patch source-rewrite', () => {
  const P = 'source-rewrite';
  it('relies on: selections are . nodes with [operand, fieldName] args; positions on every node', () => {
    const { root } = rawAst('m.abc', { m: 'map<string, int>' });
    const sel = findNode(P, root, (n) => n.op === '.');
    expectShape(P, (sel.args as unknown[])[1] === 'abc', 'args[1] is the field name');
    expectShape(P, sel.start === 0 && sel.end === 5, 'node.start/end are source offsets');
  });

  it('fixes: the engine lexes no raw bytes, backtick-quoted fields or leading-dot doubles', () => {
    for (const expr of ["br'x'", "{'a-b': 1}.`a-b`", '.5'])
      expectUpstream(P, /ParseError/.test(rawOutcome(expr).error ?? ''), `fails to parse ${expr}`);
    expect(run("{'a-b': 1}.`a-b`")).toBe(1n);
    expect(run('.5')).toBe(0.5);
  });
});
