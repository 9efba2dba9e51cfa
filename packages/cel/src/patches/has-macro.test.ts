import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome } from './raw-engine.js';

const P = 'has-macro';

describe(`patch ${P}`, () => {
  it('relies on: has(x) is a call whose meta.macro holds args and typeCheck/evaluate hooks', () => {
    const { root } = rawAst('has(m.a)', { m: 'map<string, int>' }, false);
    const node = findNode(P, root, (n) => n.op === 'call' && callName(n) === 'has');
    const macro = node.meta.macro as { args?: unknown; typeCheck?: unknown; evaluate?: unknown } | undefined;
    expectShape(P, Array.isArray(macro?.args), 'meta.macro.args');
    expectShape(
      P,
      typeof macro?.typeCheck === 'function' && typeof macro?.evaluate === 'function',
      'meta.macro.typeCheck/evaluate',
    );
  });

  it('fixes: the engine only takes a variable as the root of has()', () => {
    expectUpstream(
      P,
      /has\(\) invalid argument/.test(rawOutcome("has({'a': 1}.a)").error ?? ''),
      'rejects a literal root',
    );
    const env = createEnv({ variables: { m: 'map<string, dyn>' } });
    expect(compile("has({'a': 1}.a)", env).evaluate({ m: {} })).toBe(true);
    expect(compile('has(m.x.y)', env).evaluate({ m: { x: { y: 1n } } })).toBe(true);
    expect(compile('has(optional.of(m).x)', env).evaluate({ m: {} })).toBe(false);
  });
});
