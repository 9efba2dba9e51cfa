/**
 * Patch `unchecked-programs` (`compile(…, { check: false })`, cel-go's unchecked ASTs): the engine
 * either type-checks up front or, unchecked, type-checks against the activation's runtime types
 * and fails as a whole. Here every node is typed `dyn` for its parent (operators, functions and
 * selections dispatch on runtime types), an unknown identifier is read from the activation, and
 * a node the checker rejects raises that error only if it is evaluated (`f_unknown(1) || true`
 * is `true`, as in cel-go). Relies on: `node.check(checker, ast, ctx)` types one node; the
 * checker throws errors named `TypeError` with a `code` (`unknown_variable`, …).
 */
import { EvaluationError } from '@marcbachmann/cel-js';
import type { CheckedType, Checker } from './checker-hook.js';
import type { EngineNode } from './engine-ast.js';

/** The unchecked mode's `check`: never fails, defers static errors to evaluation. */
export function checkUnchecked(chk: Checker, ast: EngineNode, ctx: unknown): CheckedType {
  const dyn = chk.getType('dyn');
  if (ast.checkedType !== undefined) return dyn;
  try {
    (ast as { checkedType?: unknown }).checkedType = ast.check(chk, ast, ctx) ?? dyn;
  } catch (e) {
    const err = e as { name?: string; code?: string; summary?: string; message?: string };
    if (err?.name !== 'TypeError' || err.code === undefined) throw e;
    (ast as { checkedType?: unknown }).checkedType = dyn;
    if (!(ast.op === 'id' && err.code === 'unknown_variable')) {
      const code = err.code;
      const summary = err.summary ?? err.message ?? String(e);
      ast.evaluate = () => {
        throw new EvaluationError({ code, message: summary, node: ast as never });
      };
    }
  }
  return dyn;
}
