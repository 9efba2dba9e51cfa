/**
 * Patch `optional-select`: selecting a field of a present optional whose value is not a map or
 * object (`dyn(optional.of(1)).f`) gives `optional.none()` in the engine; cel-go fails with
 * no-such-key. Relies on: `.` nodes have `handle(l, r, ast, ev)` and the operand's
 * `checkedType.kind` (`optional`, `dyn`); optionals are the engine's `Optional`.
 */
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { evalError } from '../library/values.js';
import { type AstPatch, type EngineNode, wrapHandle } from './engine-ast.js';

/** A value fields can be selected from: a map or an object (not a scalar, list, bytes, …). */
function selectable(v: unknown): boolean {
  return (
    v instanceof Map ||
    (typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      !(v instanceof Uint8Array) &&
      !(v instanceof Date) &&
      !(v instanceof Duration) &&
      !(v instanceof UnsignedInt))
  );
}

export const optionalSelectPatch: AstPatch = {
  name: 'optional-select',
  ops: ['.'],
  apply(node) {
    if (node.op !== '.') return;
    const kind = ((node.args as [EngineNode])[0].checkedType as { kind?: string } | undefined)?.kind;
    if (kind !== 'optional' && kind !== 'dyn') return;
    wrapHandle(node, (inner) => (l, r, ast, ev) => {
      if (l instanceof Optional && l.hasValue() && !selectable(l.value()))
        throw evalError(`No such key: ${String(r)}`, 'no_such_key');
      return inner(l, r, ast, ev);
    });
  },
};
