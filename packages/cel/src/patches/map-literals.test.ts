import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome } from './raw-engine.js';

const P = 'map-literals';
const run = (expr: string) => compile(expr, createEnv()).evaluate();

describe(`patch ${P}`, () => {
  it('relies on: a map literal is a map node of [key, value] pairs with a replaceable evaluate', () => {
    const { root } = rawAst("{1: 'a'}");
    const node = findNode(P, root, (n) => n.op === 'map');
    const [pair] = node.args as [[{ op: string; args: unknown }, unknown]];
    expectShape(
      P,
      Array.isArray(pair) && pair[0].op === 'value' && pair[0].args === 1n,
      'args = [[keyNode, valueNode]]',
    );
    expectShape(
      P,
      !Object.hasOwn(node, 'evaluate'),
      'evaluate comes from the prototype (an own one is a patch)',
    );
  });

  it('fixes: the engine makes every key a string and accepts double, null and repeated keys', () => {
    expectUpstream(
      P,
      rawOutcome("dyn({1: 'a'}) == dyn({'1': 'a'})").value === true,
      "equates {1: 'a'} and {'1': 'a'}",
    );
    expectUpstream(P, rawOutcome("{1.5: 'a'}").error === undefined, 'accepts a double key');
    expectUpstream(P, rawOutcome("{'a': 1, 'a': 2}").error === undefined, 'accepts a repeated key');
    expect(run("dyn({1: 'a'}) == dyn({'1': 'a'})")).toBe(false);
    expect(run("{1: 'a'}[1u]")).toBe('a');
    expect(run("dyn(2.0) in {1: 'a', 2: 'b'}")).toBe(true);
    expect(() => compile("{1.5: 'a'}", createEnv())).toThrow(/unsupported map key type: double/);
    expect(() => compile("{'a': 1, 'a': 2}", createEnv())).toThrow(/duplicate map key/);
    expect(Object.getPrototypeOf(run("{'__proto__': 1, 'b': 2}"))).toBe(Object.prototype);
  });
});
