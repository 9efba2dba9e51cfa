/**
 * Patch `aggregate-equality`: the engine compares lists and maps by its own rules, which know
 * neither Kubernetes' set/map lists (`x-kubernetes-list-type: set|map`: equal regardless of
 * order, `+` is a union or a merge by key) nor `Map`-keyed CEL maps (`{1: 'a'}`, see
 * `map-literals`). `==`/`!=` on two lists or maps use `celEquals` (CEL equality at any depth,
 * numbers across int/uint/double), `+` on marked lists `concatMarked` (`../list-semantics.ts`).
 * Relies on: `==`, `!=`, `+` nodes have `handle(l, r, ast, ev)`; lists are arrays, maps plain
 * objects or `Map`s.
 */
import { celEquals, concatMarked, listSemantics } from '../list-semantics.js';
import { type AstPatch, wrapHandle } from './engine-ast.js';

/** A list or a map value (array, `Map`, plain object). */
export function isAggregate(v: unknown): boolean {
  return (
    Array.isArray(v) ||
    v instanceof Map ||
    (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
  );
}

export const aggregateEqualityPatch: AstPatch = {
  name: 'aggregate-equality',
  ops: ['==', '!=', '+'],
  apply(node) {
    if (node.op === '==' || node.op === '!=') {
      const eq = node.op === '==';
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          isAggregate(l) && isAggregate(r) ? celEquals(l, r) === eq : inner(l, r, ast, ev),
      );
    } else if (node.op === '+')
      wrapHandle(
        node,
        (inner) => (l, r, ast, ev) =>
          Array.isArray(l) && Array.isArray(r) && (listSemantics(l) || listSemantics(r))
            ? concatMarked(l, r)
            : inner(l, r, ast, ev),
      );
  },
};
