/**
 * @orchard/cel — the Common Expression Language for Orchard: compile against declared variables,
 * evaluate under a cost budget, the spec's libraries (lists, regex on RE2, URLs, quantities,
 * optionals, authorizer), type mapping from structural schemas, property-name escaping, the static
 * cost estimate, and CRD validation rules.
 */

export type { CostEstimate } from './cost-estimator.js';
export { maxSizeOf } from './cost-estimator.js';
export type { CostTracker } from './cost-tracker.js';
export { createCostTracker } from './cost-tracker.js';
export type {
  CelEnv,
  CelEnvOptions,
  CelFeatureGates,
  CompileOptions,
  EvaluateOptions,
  EvaluationResult,
  Program,
  VariableDeclaration,
} from './environment.js';
export { compile, createEnv, defaultCelFeatureGates } from './environment.js';
export type { CelErrorCode, CelErrorOptions, CelSourcePosition } from './errors.js';
export { CelError, isCelError } from './errors.js';
export { celReservedSymbols, escapePropertyName, unescapePropertyName } from './escaping.js';
export type {
  AuthorizationAttributes,
  Authorizer,
  AuthorizerDecision,
  AuthorizerResult,
  AuthorizerUserInfo,
} from './library/authorizer.js';
export { createAuthorizerValue } from './library/authorizer.js';
export {
  ListCreateBaseCost,
  ListTraversalCostFactor,
  MaxRequestSizeBytes,
  PerCallLimit,
  RegexStringLengthCostFactor,
  RuntimeCELCostBudget,
  StaticEstimatedCostLimit,
  StaticEstimatedCRDCostLimit,
  StringTraversalCostFactor,
} from './limits.js';
export type { ListSemantics } from './list-semantics.js';
export { celEquals, listSemantics, markList } from './list-semantics.js';
export {
  formatTimestamp,
  subMillisecondNanos,
  timestampFromNanos,
  timestampNanos,
} from './timestamps.js';
export type { CelType } from './types.js';
export { celTypeOf, fromCelValue, toCelValue, toCelValueUntyped } from './types.js';
export type {
  CompiledNode,
  CompiledRule,
  CompiledValidationRules,
  CompileValidationRulesOptions,
  ValidateOptions,
  ValidationCause,
  ValidationRuleError,
  ValidationRuleReason,
} from './validation.js';
export {
  compileValidationRules,
  MaxMessageExpressionLength,
  validateWithRules,
  validationRuleReasons,
} from './validation.js';
