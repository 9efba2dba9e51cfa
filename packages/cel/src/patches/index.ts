/**
 * The patches over `@marcbachmann/cel-js` 8.0.0 (pinned exactly in package.json): one file per
 * upstream behaviour, each with a test that names the patch when an engine upgrade changes the
 * internals it reaches into. The README's "Patches" table says what each fixes. Internal to the
 * package: nothing here is exported from `@orchard/cel`.
 */
import { aggregateEqualityPatch } from './aggregate-equality.js';
import { type AstPatch, type EngineNode, walkAst } from './engine-ast.js';
import { integerOverflowPatch } from './integer-overflow.js';
import { mapLiteralsPatch } from './map-literals.js';
import { numericComparisonPatch } from './numeric-comparison.js';
import { optionalSelectPatch } from './optional-select.js';
import { regexMatchesPatch } from './regex-matches.js';
import { stringFromBytesPatch } from './string-from-bytes.js';
import { timeZonesPatch } from './time-zones.js';
import { timestampsPatch } from './timestamps.js';

export { type Checker, captureChecker, lenientSymbol, registerCheckProbe } from './checker-hook.js';
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
export { type EngineNode, walkAst } from './engine-ast.js';
export { patchHasMacro as patchParsed } from './has-macro.js';
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

/**
 * Applies every patch to a checked AST (before the first evaluation); `visit`, when given, also sees
 * every node in the same walk (compile collects the referenced variables there).
 */
export function patchAst(
  root: EngineNode,
  source: string,
  options: { unchecked?: boolean; visit?: (n: EngineNode) => void } = {},
): void {
  const context = { source, unchecked: options.unchecked === true };
  const visit = options.visit;
  walkAst(root, (n) => {
    for (let i = 0; i < checkedAstPatches.length; i++) (checkedAstPatches[i] as AstPatch).apply(n, context);
    if (visit !== undefined) visit(n);
  });
}
