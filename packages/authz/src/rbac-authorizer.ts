/**
 * Mode `RBAC`: an authorizer over an `RbacEvaluator` (from @orchard/rbac), which the server keeps fed
 * from the served Role/ClusterRole/RoleBinding/ClusterRoleBinding objects. RBAC only allows or
 * abstains; permissions are purely additive.
 */
import type { PolicyRule, RbacEvaluator } from '@orchard/rbac';
import { toRbacAttributes } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { noOpinionResult } from './authorizer.js';

/**
 * Mode `RBAC` over `evaluator`: allows with the evaluator's reason when a binding of the caller allows the
 * request, otherwise `no-opinion` (never `deny`), and lists the caller's rules for SelfSubjectRulesReview
 * (never `incomplete`). Reads the evaluator at each call, so later changes to it apply at once; mutates
 * nothing.
 */
export function createRbacAuthorizer(evaluator: RbacEvaluator): Authorizer {
  return {
    authorize(a) {
      const d = evaluator.authorize(a.user, toRbacAttributes(a));
      return d.allowed ? { decision: 'allow', reason: d.reason } : noOpinionResult;
    },
    rulesFor(user, namespace) {
      const resourceRules: PolicyRule[] = [];
      const nonResourceRules: PolicyRule[] = [];
      for (const r of evaluator.rulesFor(user, namespace)) {
        if (r.nonResourceURLs?.length)
          nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
        if (r.resources?.length)
          resourceRules.push({
            verbs: r.verbs,
            apiGroups: r.apiGroups ?? [],
            resources: r.resources,
            ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
          });
      }
      return { resourceRules, nonResourceRules, incomplete: false };
    },
  };
}
