import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'string-from-bytes';

describe(`patch ${P}`, () => {
  it('relies on: string(b) is a call node named string whose handle(args) gets a Uint8Array', () => {
    const calls = recordHandle(P, "string(b'a')", (n) => n.op === 'call' && callName(n) === 'string');
    expectShape(
      P,
      (calls[0]?.[0] as unknown[])?.[0] instanceof Uint8Array,
      'bytes are Uint8Array in args[0]',
    );
  });

  it('fixes: the engine replaces invalid UTF-8 instead of failing', () => {
    expectUpstream(P, rawOutcome("string(b'\\xff')").value === '\ufffd', 'decodes invalid UTF-8 to U+FFFD');
    expect(() => compile("string(b'\\xff')", createEnv()).evaluate()).toThrow(/invalid UTF-8/);
    expect(compile("string(b'\\xc3\\xbf')", createEnv()).evaluate()).toBe('ÿ');
  });
});
