/**
 * Patch `integer-overflow`: the engine's int64 arithmetic is BigInt without a range check in
 * places: `int(1e19)` is 10000000000000000000 and `-(-9223372036854775808)` is 2^63 (cel-go: an
 * overflow error), `uint(double)` out of range, and a `*` or `/` result beyond int64. Relies on:
 * `int(x)`/`uint(x)` are `call` nodes with `handle(args, ast, ev)`; unary minus is op `-_`
 * with `handle(v, ast, ev)`; `*` and `/` have `handle(l, r, ast, ev)`; int64 values are `bigint`.
 */
import { evalError } from '../library/values.js';
import { type AstPatch, callName, wrapHandle } from './engine-ast.js';

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
const two63 = 2 ** 63;
const two64 = 2 ** 64;

function checkInt64(v: unknown): unknown {
  if (typeof v === 'bigint' && (v > int64Max || v < int64Min))
    throw evalError('integer overflow', 'numeric_overflow');
  return v;
}

export const integerOverflowPatch: AstPatch = {
  name: 'integer-overflow',
  ops: ['call', '-_', '*', '/'],
  apply(node) {
    if (node.op === 'call' && callName(node) === 'int')
      wrapHandle(node, (inner) => (args, ast, ev) => {
        const x = (args as unknown[])[0];
        if (typeof x === 'number' && !(x < two63 && x > -two63))
          throw evalError('integer overflow', 'numeric_overflow');
        return inner(args, ast, ev);
      });
    else if (node.op === 'call' && callName(node) === 'uint')
      wrapHandle(node, (inner) => (args, ast, ev) => {
        const x = (args as unknown[])[0];
        if (typeof x === 'number' && !(x > -1 && x < two64))
          throw evalError('unsigned integer overflow', 'numeric_overflow');
        return inner(args, ast, ev);
      });
    else if (node.op === '-_') wrapHandle(node, (inner) => (v, ast, ev) => checkInt64(inner(v, ast, ev)));
    else if (node.op === '*' || node.op === '/')
      wrapHandle(node, (inner) => (l, r, ast, ev) => checkInt64(inner(l, r, ast, ev)));
  },
};
