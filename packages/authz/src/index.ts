/**
 * @orchard/authz: authorization without a server (spec doc 2 §5.3). Request attributes and the verb
 * mapping, the Authorizer contract (allow / deny / no-opinion with a reason), the chain where the first
 * allow or deny ends, the `system:masters` bypass, and the modes AlwaysAllow, AlwaysDeny, RBAC (over
 * an @orchard/rbac evaluator) and ABAC (upstream's one-JSON-object-per-line policy file).
 */

export type { AbacPolicy } from './abac.js';
export {
  AbacPolicyError,
  abacApiVersions,
  abacPolicyAllows,
  createAbacAuthorizer,
  isAbacPolicyError,
  parseAbacPolicies,
} from './abac.js';
export type { AuthorizationAttributes } from './attributes.js';
export { isReadOnlyVerb, requestVerb, toRbacAttributes } from './attributes.js';
export type { AuthorizationDecision, AuthorizationResult, Authorizer, SubjectRules } from './authorizer.js';
export { allowResult, alwaysAllowAuthorizer, alwaysDenyAuthorizer, noOpinionResult } from './authorizer.js';
export { createAuthorizerChain, createPrivilegedGroupsAuthorizer, mastersGroup } from './chain.js';
export type { AuthorizationMode, AuthorizerChainOptions } from './modes.js';
export {
  authorizationModes,
  createModeAuthorizer,
  parseAuthorizationModes,
  supportedAuthorizationModes,
} from './modes.js';
export { createRbacAuthorizer } from './rbac-authorizer.js';
