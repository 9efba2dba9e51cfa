/**
 * Patch `numeric-comparison`: CEL compares numbers across int, uint and double. The engine
 * compares an int64 `bigint` with a double exactly (`9007199254740993 <= 9007199254740992.0` is
 * false; cel-go converts to double: true), rejects `1.0 in [1]` and finds no `1u in [1]`, and
 * refuses a uint list index (`[1, 2][1u]`). Relies on: `< <= > >= in []` nodes have
 * `handle(l, r, ast, ev)`; int is `bigint`, double `number`, uint the engine's `UnsignedInt`.
 */
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals } from '../list-semantics.js';
import { type AstPatch, wrapHandle } from './engine-ast.js';

/** An int, uint or double value. */
export function isNumeric(v: unknown): boolean {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof UnsignedInt;
}

const order: Record<string, (x: number, y: number) => boolean> = {
  '<': (x, y) => x < y,
  '<=': (x, y) => x <= y,
  '>': (x, y) => x > y,
  '>=': (x, y) => x >= y,
};

export const numericComparisonPatch: AstPatch = {
  name: 'numeric-comparison',
  ops: [...Object.keys(order), 'in', '[]'],
  apply(node) {
    const op = node.op;
    if (Object.hasOwn(order, op)) {
      const test = order[op] as (x: number, y: number) => boolean;
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          (typeof l === 'bigint' && typeof r === 'number') || (typeof l === 'number' && typeof r === 'bigint')
            ? test(Number(l), Number(r))
            : inner(l, r, ast, ev),
      );
    } else if (op === 'in')
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          Array.isArray(r) && isNumeric(l) ? r.some((x) => celEquals(l, x)) : inner(l, r, ast, ev),
      );
    else if (op === '[]')
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          inner(l, Array.isArray(l) && r instanceof UnsignedInt ? r.value : r, ast, ev),
      );
  },
};
