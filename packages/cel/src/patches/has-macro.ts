/**
 * Patch `has-macro`: the engine's `has()` macro only accepts a selection rooted at a variable
 * (`has({'a': 1}.a)` fails with "has() invalid argument"); CEL allows any expression as the
 * operand. For other roots the macro's `typeCheck`/`evaluate` hooks are replaced (applied after
 * parsing, before type-checking). Relies on: `has(x)` parses to a `call` node named `has` whose
 * `meta.macro` holds `args` and the `typeCheck`/`evaluate` hooks; qualified names resolved by
 * `../names.ts` carry `meta.alternate`.
 */
import { evalError } from '../library/values.js';
import type { Checker } from './checker-hook.js';
import { callName, type EngineNode } from './engine-ast.js';

interface Macro {
  args: EngineNode[];
}

interface Runner {
  run(node: EngineNode, ctx: unknown): unknown;
}

function idRooted(node: EngineNode): boolean {
  let n = node;
  while (n.op === '.' || n.op === '.?') {
    if (n.meta?.alternate !== undefined) return false; // a resolved qualified name
    n = (n.args as [EngineNode])[0];
  }
  return n.op === 'id' && n.meta?.alternate === undefined;
}

const hasOnExpression = {
  typeCheck(chk: Checker, macro: Macro, ctx: unknown) {
    const sel = macro.args[0] as EngineNode;
    if (sel.op !== '.' && sel.op !== '.?')
      throw chk.createError('invalid_macro_argument', 'has() invalid argument', sel);
    chk.check((sel.args as [EngineNode])[0], ctx);
    return chk.getType('bool');
  },
  evaluate(ev: Runner, macro: Macro, ctx: unknown) {
    const sel = macro.args[0] as EngineNode;
    const [operand, field] = sel.args as [EngineNode, string];
    let obj = ev.run(operand, ctx) as { hasValue?: unknown; orValue?: unknown; value?: () => unknown } | null;
    if (
      obj !== null &&
      typeof obj === 'object' &&
      typeof obj.hasValue === 'function' &&
      typeof obj.orValue === 'function'
    ) {
      if (!obj.hasValue()) return false;
      obj = (obj.value as () => typeof obj)();
    }
    if (obj instanceof Map) return obj.has(field);
    if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) return Object.hasOwn(obj, field);
    throw evalError(
      `has() not supported on ${obj === null ? 'null' : Array.isArray(obj) ? 'list' : typeof obj}`,
      'no_such_field',
    );
  },
};

/**
 * Gives a `has()` call node on a non-variable root CEL's semantics; any other node is left alone.
 * Applied before the node is type-checked (compile calls it from the checker hook).
 */
export function patchHasNode(n: EngineNode): void {
  if (n.op !== 'call' || callName(n) !== 'has') return;
  const macro = n.meta?.macro as Record<string, unknown> | undefined;
  const arg = (macro?.args as EngineNode[] | undefined)?.[0];
  if (macro === undefined || arg === undefined || idRooted(arg)) return;
  macro.typeCheck = hasOnExpression.typeCheck;
  macro.evaluate = hasOnExpression.evaluate;
}
