/**
 * CRD validation rules (`x-…-validations`): `compileValidationRules(schema)` compiles every rule
 * of every schema node once (when the CRD is created), rejecting rules that do not compile, whose
 * estimated cost is too high, or whose `reason`/`fieldPath` are invalid; `validateWithRules(obj,
 * oldObj, compiled)` evaluates them against an object with `self` (and `oldSelf` for transition
 * rules, which run only on update when the old value exists, or always with `optionalOldSelf`) and
 * returns every failure as a field cause, for one 422.
 */

export type {
  CompiledNode,
  CompiledRule,
  CompiledValidationRules,
  CompileValidationRulesOptions,
  ValidationRuleError,
  ValidationRuleReason,
} from './validation-compiler.js';
export {
  compileValidationRules,
  MaxMessageExpressionLength,
  validationRuleReasons,
} from './validation-compiler.js';
export type { ValidateOptions, ValidationCause } from './validation-evaluator.js';
export { validateWithRules } from './validation-evaluator.js';
