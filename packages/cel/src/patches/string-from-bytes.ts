/**
 * Patch `string-from-bytes`: the engine's `string(bytes)` decodes invalid UTF-8 with replacement
 * characters (`string(b'\xff')` is `"\ufffd"`); cel-go fails with an invalid-argument error.
 * Relies on: `string(x)` is a `call` node named `string` with `handle(args, ast, ev)`; bytes are
 * `Uint8Array`s.
 */
import { evalError } from '../library/values.js';
import { type AstPatch, callName, wrapHandle } from './engine-ast.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const stringFromBytesPatch: AstPatch = {
  name: 'string-from-bytes',
  ops: ['call'],
  apply(node) {
    if (node.op !== 'call' || callName(node) !== 'string') return;
    wrapHandle(node, (inner) => (args, ast, ev) => {
      const x = (args as unknown[])[0];
      if (!(x instanceof Uint8Array)) return inner(args, ast, ev);
      try {
        return utf8.decode(x);
      } catch {
        throw evalError('invalid UTF-8 in bytes, cannot convert to string', 'invalid_argument');
      }
    });
  },
};
