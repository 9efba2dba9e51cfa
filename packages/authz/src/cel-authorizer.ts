/**
 * The CEL `authorizer` library (doc 2 §2.10 item 3) bound to an authorization chain: checks made from
 * an expression (`authorizer.group('apps').resource('deployments').check('update')`) are decided by
 * the same authorizers as requests.
 */
import type {
  AuthorizerResult,
  AuthorizationAttributes as CelAuthorizationAttributes,
  Authorizer as CelAuthorizer,
} from '@orchard/cel';
import type { AuthorizationAttributes } from './attributes.js';
import { authorizationAttributes } from './attributes.js';
import type { Authorizer } from './authorizer.js';

const decisions = { allow: 'allow', deny: 'deny', 'no-opinion': 'noOpinion' } as const;

/** The attributes of a check made from an expression, as the chain reads them. */
export function fromCelAttributes(a: CelAuthorizationAttributes): AuthorizationAttributes {
  return authorizationAttributes({
    user: {
      username: a.user.username,
      groups: [...(a.user.groups ?? [])],
      ...(a.user.uid ? { uid: a.user.uid } : {}),
      ...(a.user.extra ? { extra: a.user.extra } : {}),
    },
    verb: a.verb,
    isResourceRequest: a.resourceRequest,
    path: a.path ?? '',
    apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? '',
    namespace: a.namespace ?? '',
    resource: a.resource ?? '',
    subresource: a.subresource ?? '',
    name: a.name ?? '',
    ...(a.fieldSelector ? { fieldSelector: a.fieldSelector.rawSelector } : {}),
    ...(a.labelSelector ? { labelSelector: a.labelSelector.rawSelector } : {}),
  });
}

/**
 * `authorizer` as the CEL library's synchronous `Authorizer` (bind it with `createAuthorizerValue`).
 * An expression cannot wait: a decision that needs a call (a webhook whose answer is not cached) is
 * `noOpinion` with an `error`, so `allowed()` is false and `errored()`/`error()` say why. Never throws.
 */
export function toCelAuthorizer(authorizer: Authorizer): CelAuthorizer {
  return {
    authorize(a): AuthorizerResult {
      let r: ReturnType<Authorizer['authorize']>;
      try {
        r = authorizer.authorize(fromCelAttributes(a));
      } catch (e) {
        return { decision: 'noOpinion', reason: '', error: (e as Error)?.message ?? String(e) };
      }
      if (r instanceof Promise) {
        r.catch(() => undefined);
        return {
          decision: 'noOpinion',
          reason: '',
          error:
            'the decision needs an asynchronous authorizer (a webhook call) and cannot be made in an expression',
        };
      }
      return { decision: decisions[r.decision], reason: r.reason };
    },
  };
}
