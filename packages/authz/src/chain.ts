/**
 * The decision chain (spec doc 2 §5.3): authorizers run in order, the first `allow` or `deny` ends
 * it; when every one abstains the chain abstains too, and the server answers 403.
 */
import type { AuthorizationAttributes } from './attributes.js';
import type { AuthorizationResult, Authorizer, SubjectRules } from './authorizer.js';
import { allowResult, noOpinionResult } from './authorizer.js';

function abstain(reasons: string[]): AuthorizationResult {
  return reasons.length === 0 ? noOpinionResult : { decision: 'no-opinion', reason: reasons.join('\n') };
}

/**
 * Runs `authorizers` in order. Synchronous authorizers keep the whole decision synchronous; the first
 * that answers with a promise makes the rest asynchronous. The reasons of abstaining authorizers are
 * joined (as upstream's union does), so a 403 can say why each declined.
 */
export function createAuthorizerChain(authorizers: readonly Authorizer[]): Authorizer {
  const list = [...authorizers];
  if (list.length === 1) return list[0] as Authorizer;
  const finish = async (
    a: AuthorizationAttributes,
    from: number,
    pending: Promise<AuthorizationResult>,
    reasons: string[],
  ): Promise<AuthorizationResult> => {
    let r = await pending;
    for (let i = from; ; i++) {
      if (r.decision !== 'no-opinion') return r;
      if (r.reason !== '') reasons.push(r.reason);
      const next = list[i];
      if (!next) return abstain(reasons);
      r = await next.authorize(a);
    }
  };
  return {
    authorize(a) {
      const reasons: string[] = [];
      for (let i = 0; i < list.length; i++) {
        const r = (list[i] as Authorizer).authorize(a);
        if (r instanceof Promise) return finish(a, i + 1, r, reasons);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason !== '') reasons.push(r.reason);
      }
      return abstain(reasons);
    },
    rulesFor(user, namespace): SubjectRules {
      const resourceRules = [];
      const nonResourceRules = [];
      let incomplete = false;
      const errors: string[] = [];
      for (const z of list) {
        if (!z.rulesFor) {
          incomplete = true;
          continue;
        }
        const r = z.rulesFor(user, namespace);
        resourceRules.push(...r.resourceRules);
        nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) incomplete = true;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      return {
        resourceRules,
        nonResourceRules,
        incomplete,
        ...(errors.length ? { evaluationError: errors.join(', ') } : {}),
      };
    },
  };
}

/** The group whose members bypass every authorizer (spec doc 2 §5.3). */
export const mastersGroup = 'system:masters';

/**
 * Allows members of any of `groups` before anything else is asked (upstream's privileged-groups
 * authorizer, `system:masters`); everyone else gets no opinion.
 */
export function createPrivilegedGroupsAuthorizer(groups: readonly string[] = [mastersGroup]): Authorizer {
  const set = new Set(groups);
  return {
    authorize(a) {
      for (const g of a.user.groups) if (set.has(g)) return allowResult;
      return noOpinionResult;
    },
    rulesFor(user) {
      const privileged = user.groups.some((g) => set.has(g));
      return privileged
        ? {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          }
        : { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}
