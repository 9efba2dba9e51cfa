import { Optional } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'optional-select';

describe(`patch ${P}`, () => {
  it("relies on: a . node's operand carries checkedType.kind and handle(l, r) gets the Optional", () => {
    const { root } = rawAst('optional.of({"a": 1}).a');
    const sel = findNode(P, root, (n) => n.op === '.');
    const kind = (sel.args as [{ checkedType?: { kind?: string } }])[0].checkedType?.kind;
    expectShape(P, kind === 'optional', 'operand.checkedType.kind is "optional"');
    const calls = recordHandle(P, 'optional.of({"a": 1}).a', (n) => n.op === '.');
    expectShape(P, calls[0]?.[0] instanceof Optional && calls[0]?.[1] === 'a', 'handle(optional, field)');
  });

  it('fixes: the engine answers none for a field of a present non-map optional', () => {
    expectUpstream(P, rawOutcome('dyn(optional.of(1)).f').value instanceof Optional, 'returns an optional');
    expect(() => compile('dyn(optional.of(1)).f', createEnv()).evaluate()).toThrow(/No such key: f/);
    expect(compile('optional.of({"a": 1}).a.value()', createEnv()).evaluate()).toBe(1n);
  });
});
