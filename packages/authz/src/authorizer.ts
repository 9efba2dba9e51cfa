/**
 * The Authorizer contract (spec doc 2 §5.3): each authorizer allows, denies, or has no opinion, with
 * a reason; a chain asks them in order (`createAuthorizerChain`).
 */
import type { UserInfo } from '@orchard/meta';
import type { PolicyRule } from '@orchard/rbac';
import type { AuthorizationAttributes } from './attributes.js';

/** `no-opinion` lets the next authorizer of a chain decide; a chain where all abstain denies. */
export type AuthorizationDecision = 'allow' | 'deny' | 'no-opinion';

/**
 * One authorizer's answer: `allow`, `deny` or `no-opinion`, with upstream's reason text (`""` when there is
 * none).
 */
export interface AuthorizationResult {
  readonly decision: AuthorizationDecision;
  /** Why (upstream's reason string); appended to a 403 message when not empty. */
  readonly reason: string;
}

/**
 * The rules a subject holds in one namespace (SelfSubjectRulesReview): resource rules, non-resource
 * rules, and `incomplete` when some authorizer cannot list what it would allow (ABAC, webhooks).
 */
export interface SubjectRules {
  readonly resourceRules: PolicyRule[];
  readonly nonResourceRules: PolicyRule[];
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/**
 * Decides one request. May return a promise (webhooks); a synchronous answer keeps the request on the
 * fast path. Must not throw for a well-formed request: an internal failure is `no-opinion` (or `deny`
 * by the authorizer's own failure policy) with the reason saying why.
 */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
  /**
   * The rules `user` holds in `namespace` (`""`: cluster-wide), for SelfSubjectRulesReview. An
   * authorizer without it makes the answer `incomplete`.
   */
  rulesFor?(user: UserInfo, namespace: string): SubjectRules;
}

/** A shared `allow` with no reason; frozen, so return it rather than copying it and never mutate it. */
export const allowResult: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });
/**
 * A shared `no-opinion` with no reason, what an authorizer returns to let the next one decide; frozen, never
 * mutate it.
 */
export const noOpinionResult: AuthorizationResult = Object.freeze({ decision: 'no-opinion', reason: '' });

/** Mode `AlwaysAllow`: allows every request (insecure; RBAC behind it never decides anything). */
export const alwaysAllowAuthorizer: Authorizer = Object.freeze({
  authorize: () => allowResult,
  rulesFor: (): SubjectRules => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
});

const alwaysDenied: AuthorizationResult = Object.freeze({
  decision: 'deny',
  reason: 'Everything is forbidden.',
});

/** Mode `AlwaysDeny` (for tests): denies every request with upstream's reason. */
export const alwaysDenyAuthorizer: Authorizer = Object.freeze({
  authorize: () => alwaysDenied,
  rulesFor: (): SubjectRules => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
});
