import type { Flavor } from '@orchard/meta';
import { defineResource, type ResourceDefinition } from '../resource.js';

/**
 * `selfsubjectreviews` (authentication group v1): answers with the caller's identity (spec doc 2 §2.2, §4.2).
 * Not stored; only `create`.
 */
export function selfSubjectReviews(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('authentication'),
    versions: ['v1'],
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    namespaced: false,
    verbs: ['create'],
    virtualCreate(obj, { user }) {
      const userInfo: Record<string, unknown> = { username: user.username, groups: [...user.groups] };
      if (user.uid) userInfo.uid = user.uid;
      if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
      return {
        kind: 'SelfSubjectReview',
        apiVersion: `${flavor.group('authentication')}/v1`,
        metadata: { creationTimestamp: null, ...(obj.metadata ?? {}) },
        status: { userInfo },
      };
    },
  });
}

/**
 * `selfsubjectaccessreviews` (authorization group v1). Until an authorizer is configured every
 * authenticated request is allowed, so the honest answer is `allowed: true`.
 */
export function selfSubjectAccessReviews(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('authorization'),
    versions: ['v1'],
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
    virtualCreate(obj) {
      return {
        ...obj,
        kind: 'SelfSubjectAccessReview',
        apiVersion: `${flavor.group('authorization')}/v1`,
        metadata: { creationTimestamp: null, ...(obj.metadata ?? {}) },
        status: {
          allowed: true,
          reason: 'no authorizer is configured: every authenticated request is allowed',
        },
      };
    },
  });
}
