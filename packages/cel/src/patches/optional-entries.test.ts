import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome } from './raw-engine.js';

const P = 'optional-entries';

describe(`patch ${P}`, () => {
  it('relies on: list and map nodes have setMeta() for a replacement check hook', () => {
    const { root } = rawAst('[[1], {1: 2}]', {}, false);
    const list = findNode(P, root, (n) => n.op === 'list');
    const map = findNode(P, root, (n) => n.op === 'map');
    expectShape(
      P,
      typeof (list as { setMeta?: unknown }).setMeta === 'function',
      'list node.setMeta(key, value)',
    );
    expectShape(
      P,
      typeof (map as { setMeta?: unknown }).setMeta === 'function',
      'map node.setMeta(key, value)',
    );
  });

  it('fixes: the engine does not parse optional entries', () => {
    expectUpstream(P, /Unexpected token/.test(rawOutcome('[?optional.of(1)]').error ?? ''), 'rejects [?x]');
    expectUpstream(
      P,
      /Unexpected token/.test(rawOutcome("{?'a': optional.of(1)}").error ?? ''),
      "rejects {?'a': x}",
    );
    const env = createEnv();
    expect(compile('[?optional.of(1), ?optional.none()]', env).evaluate()).toEqual([1n]);
    expect(compile("{?'a': optional.none(), 'b': 2}", env).evaluate()).toEqual({ b: 2n });
  });
});
