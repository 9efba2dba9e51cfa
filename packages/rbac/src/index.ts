/**
 * @orchard/rbac: role-based access control without a server (spec doc 2 §2.3, §5.3). Rule matching,
 * subjects and service-account identities, an evaluator indexed by subject, the privilege-escalation
 * guard, ClusterRole aggregation, validation of the four kinds, and the default policy per flavor.
 */

export { aggregatedRules, sameRules } from './aggregation.js';
export type { NonResourceAttributes, RbacAttributes, ResourceAttributes } from './attributes.js';
export { nameFromFieldSelector } from './attributes.js';
export type { DefaultPolicy } from './bootstrap/default-policy.js';
export { autoupdateAnnotation, defaultPolicy, sharedDefaultPolicy } from './bootstrap/default-policy.js';
export { breakdownRule, formatRule, uncoveredRules } from './escalation.js';
export type { AppliedBinding, RbacDecision, RbacEvaluator } from './evaluator.js';
export { createRbacEvaluator } from './evaluator.js';
export {
  apiGroupMatches,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  ruleAllowsNonResource,
  ruleAllowsResource,
  rulesAllow,
  verbMatches,
} from './rule-matches.js';
export {
  allServiceAccountsGroup,
  describeSubject,
  parseServiceAccountUsername,
  serviceAccountGroups,
  serviceAccountUsername,
  serviceAccountUsernamePrefix,
  subjectAppliesTo,
  subjectKey,
} from './subjects.js';
export type {
  AggregationRule,
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  RbacObjectMeta,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
  SubjectKind,
} from './types.js';
export {
  validateBinding,
  validatePathSegmentName,
  validatePolicyRule,
  validateRoleRef,
  validateRoleRefUpdate,
  validateRules,
  validateSubject,
} from './validation.js';
