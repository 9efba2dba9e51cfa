/**
 * @orchard/authz: authorization without a server (spec doc 2 §5.3). Request attributes and the verb
 * mapping, the Authorizer contract (allow / deny / no-opinion with a reason), the chain where the first
 * allow or deny ends, the `system:masters` bypass, and the modes AlwaysAllow, AlwaysDeny, RBAC (over
 * an @orchard/rbac evaluator), ABAC (upstream's one-JSON-object-per-line policy file), Node (over
 * a graph of the objects each node's pods use) and Webhook (SubjectAccessReview with TTL caches,
 * failure policy and CEL match conditions), and the `--authorization-config` file
 * (AuthorizationConfiguration) reloaded on change.
 */

export type { AbacPolicy } from './abac.js';
export {
  AbacPolicyError,
  abacApiVersions,
  abacApiVersionsFor,
  abacPolicyAllows,
  createAbacAuthorizer,
  isAbacPolicyError,
  parseAbacPolicies,
} from './abac.js';
export type { AuthorizationAttributes } from './attributes.js';
export { authorizationAttributes, isReadOnlyVerb, requestVerb, toRbacAttributes } from './attributes.js';
export type { AuthorizationDecision, AuthorizationResult, Authorizer, SubjectRules } from './authorizer.js';
export { allowResult, alwaysAllowAuthorizer, alwaysDenyAuthorizer, noOpinionResult } from './authorizer.js';
export { fromCelAttributes, toCelAuthorizer } from './cel-authorizer.js';
export { createAuthorizerChain, createPrivilegedGroupsAuthorizer, mastersGroup } from './chain.js';
export type {
  AuthorizationConfiguration,
  AuthorizerConfig,
  AuthorizerType,
  ParseAuthorizationConfigurationOptions,
  WebhookAuthorizerConfig,
} from './config/authorization-config.js';
export {
  AuthorizationConfigError,
  authorizationConfigVersions,
  isAuthorizationConfigError,
  maxAuthorizationConfigBytes,
  parseAuthorizationConfiguration,
} from './config/authorization-config.js';
export type {
  AuthorizationConfigController,
  AuthorizationConfigControllerOptions,
  BuiltinAuthorizers,
} from './config/authorization-config-controller.js';
export {
  createAuthorizationConfigController,
  defaultAuthorizationConfigControllerOptions,
} from './config/authorization-config-controller.js';
export type { AuthorizationMode, AuthorizerChainOptions } from './modes.js';
export {
  authorizationModes,
  createModeAuthorizer,
  parseAuthorizationModes,
  supportedAuthorizationModes,
} from './modes.js';
export type { NodeAuthorizerOptions } from './node-authorizer.js';
export {
  createNodeAuthorizer,
  defaultNodeRules,
  nodeIdentity,
  nodesGroup,
  nodeUserPrefix,
} from './node-authorizer.js';
export type { NodeGraph } from './node-graph.js';
export { createNodeGraph } from './node-graph.js';
export type {
  NodeGraphVertexKind,
  PersistentVolumeReferences,
  PodReference,
} from './node-references.js';
export { persistentVolumeReferences, podReferences } from './node-references.js';
export { createRbacAuthorizer } from './rbac-authorizer.js';
export type { CompiledMatchConditions, MatchVerdict } from './webhook/match-conditions.js';
export {
  compileMatchConditions,
  evaluateMatchConditions,
  maxMatchConditions,
} from './webhook/match-conditions.js';
export type {
  SubjectAccessReviewStatus,
  SubjectAccessReviewVersion,
} from './webhook/subject-access-review.js';
export {
  MalformedAnswerError,
  matchConditionRequest,
  parseSubjectAccessReviewAnswer,
  subjectAccessReview,
  subjectAccessReviewSpec,
  subjectAccessReviewVersions,
} from './webhook/subject-access-review.js';
export type { WebhookAuthorizerOptions, WebhookFailurePolicy } from './webhook/webhook-authorizer.js';
export {
  createWebhookAuthorizer,
  defaultWebhookAuthorizerOptions,
  maxWebhookTimeoutMs,
} from './webhook/webhook-authorizer.js';
export type { WebhookCallResult, WebhookMetrics } from './webhook/webhook-metrics.js';
export { createWebhookMetrics } from './webhook/webhook-metrics.js';
