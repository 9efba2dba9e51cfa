import { errors, type Flavor } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { defineResource, type ResourceDefinition } from '../resource.js';

/**
 * `tokenreviews` (authentication group v1, doc 2 §2.2): delegated authentication. `spec.token` is run
 * through the server's token methods (static file, service accounts, bootstrap, OIDC, plugins) and
 * the answer is `status.authenticated`, `status.user`, `status.audiences` (the requested audiences
 * the token is valid for; empty `spec.audiences` means the server's own) or `status.error`. Not stored.
 */
export function tokenReviews(flavor: Flavor): ResourceDefinition {
  const apiVersion = `${flavor.group('authentication')}/v1`;
  return defineResource({
    group: flavor.group('authentication'),
    versions: ['v1'],
    resource: 'tokenreviews',
    kind: 'TokenReview',
    namespaced: false,
    verbs: ['create'],
    async virtualCreate(obj, { server }) {
      const spec = isJsonObject(obj.spec) ? obj.spec : {};
      const token = spec.token;
      if (typeof token !== 'string' || token === '')
        throw errors.invalid(flavor.group('authentication'), 'TokenReview', '', [
          { reason: 'FieldValueRequired', field: 'spec.token', message: 'Required value' },
        ]);
      const rawAudiences = spec.audiences ?? [];
      if (!Array.isArray(rawAudiences) || rawAudiences.some((a) => typeof a !== 'string'))
        throw errors.invalid(flavor.group('authentication'), 'TokenReview', '', [
          { reason: 'FieldValueInvalid', field: 'spec.audiences', message: 'must be a list of strings' },
        ]);
      const audiences = rawAudiences as string[];
      const outcome = server.authentication
        ? await server.authentication.reviewToken(token, audiences)
        : ({ authenticated: false, error: 'token authentication is not configured' } as const);
      const status: Record<string, unknown> = outcome.authenticated
        ? {
            authenticated: true,
            user: {
              username: outcome.user.username,
              ...(outcome.user.uid ? { uid: outcome.user.uid } : {}),
              groups: [...outcome.user.groups],
              ...(outcome.user.extra && Object.keys(outcome.user.extra).length > 0
                ? { extra: outcome.user.extra }
                : {}),
            },
            audiences: [...outcome.audiences],
          }
        : { user: {}, error: outcome.error };
      return {
        kind: 'TokenReview',
        apiVersion,
        metadata: { creationTimestamp: null, ...(isJsonObject(obj.metadata) ? obj.metadata : {}) },
        spec: { token, ...(audiences.length > 0 ? { audiences } : {}) },
        status,
      };
    },
  });
}
