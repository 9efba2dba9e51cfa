import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { decodeBytesLiteral } from './bytes-literals.js';
import { expectShape, expectUpstream, findNode, rawAst, rawOutcome } from './raw-engine.js';

const P = 'bytes-literals';

describe(`patch ${P}`, () => {
  it("relies on: a bytes literal is a value node with a Uint8Array and the literal's end offset", () => {
    const expr = "size(b'ab')";
    const { root } = rawAst(expr);
    const node = findNode(P, root, (n) => n.op === 'value' && n.args instanceof Uint8Array);
    expectShape(P, node.end === expr.indexOf(')'), 'node.end is the offset after the closing quote');
  });

  it('fixes: the engine keeps one byte per character instead of UTF-8', () => {
    const raw = rawOutcome("b'ÿ'").value as Uint8Array;
    expectUpstream(
      P,
      raw instanceof Uint8Array && raw.length === 1 && raw[0] === 0xff,
      "makes b'ÿ' one byte 0xff",
    );
    expect([...(compile("b'ÿ'", createEnv()).evaluate() as Uint8Array)]).toEqual([0xc3, 0xbf]);
    expect([...(decodeBytesLiteral('\\303\\277') as Uint8Array)]).toEqual([0xc3, 0xbf]);
  });
});
