/**
 * The patches over `@marcbachmann/cel-js` 8.0.0 (pinned exactly in package.json): one file per
 * upstream behaviour, each with a test that names the patch when an engine upgrade changes the
 * internals it reaches into. The README's "Patches" table says what each fixes. Internal to the
 * package: nothing here is exported from `@orchard/cel`.
 */
import { aggregateEqualityPatch } from './aggregate-equality.js';
import type { AstPatch, AstPatchContext, EngineNode } from './engine-ast.js';
import { integerOverflowPatch } from './integer-overflow.js';
import { mapLiteralsPatch } from './map-literals.js';
import { numericComparisonPatch } from './numeric-comparison.js';
import { optionalSelectPatch } from './optional-select.js';
import { regexMatchesPatch } from './regex-matches.js';
import { stringFromBytesPatch } from './string-from-bytes.js';
import { timeZonesPatch } from './time-zones.js';
import { timestampsPatch } from './timestamps.js';

export {
  type Checker,
  type CheckHooks,
  captureChecker,
  hooksSymbol,
  lenientSymbol,
  registerCheckProbe,
} from './checker-hook.js';
export {
  type CallCost,
  captureEvaluator,
  chargeCost,
  costSymbol,
  type Evaluator,
  isPlainRun,
  registerProbe,
  switchRun,
} from './cost-hook.js';
export { costRegionOptions, planCostRegions } from './cost-regions.js';
export { type AstPatchContext, type EngineNode, walkAst } from './engine-ast.js';
export { patchHasNode } from './has-macro.js';
export { applyParsed, type Preprocessed, preprocess } from './source-rewrite.js';
export { paramsAsDyn } from './type-parameters.js';

/**
 * The patches of checked nodes, in application order: each wraps what the ones before it left on
 * the node (their conditions are disjoint, so the order only matters for readability).
 */
export const checkedAstPatches: readonly AstPatch[] = Object.freeze([
  regexMatchesPatch,
  integerOverflowPatch,
  stringFromBytesPatch,
  timestampsPatch,
  timeZonesPatch,
  numericComparisonPatch,
  aggregateEqualityPatch,
  mapLiteralsPatch,
  optionalSelectPatch,
]);

/** The patches by the node op they act on, each list in application order. */
const patchesByOp: ReadonlyMap<string, readonly AstPatch[]> = (() => {
  const byOp = new Map<string, AstPatch[]>();
  for (const patch of checkedAstPatches)
    for (const op of patch.ops) {
      const list = byOp.get(op) ?? [];
      if (!list.includes(patch)) list.push(patch);
      byOp.set(op, list);
    }
  return byOp;
})();

/**
 * Applies the patches of checked nodes to one node whose check just completed (compile calls it
 * from the checker hook for every node it checks, so no walk of the AST is needed).
 */
export function patchNode(node: EngineNode, context: AstPatchContext): void {
  const list = patchesByOp.get(node.op);
  if (list === undefined) return;
  for (let i = 0; i < list.length; i++) (list[i] as AstPatch).apply(node, context);
}
