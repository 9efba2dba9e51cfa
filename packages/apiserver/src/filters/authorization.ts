import { ApiError, errors, type UserInfo } from '@orchard/meta';
import type { Filter } from './filter.js';

/**
 * What is being asked for (upstream `authorizer.Attributes`): who, which verb, and either a
 * resource (`isResourceRequest`: group, version, namespace, resource, subresource, name) or a
 * non-resource `path`. The fields are those of the resolved `RequestInfo`.
 */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** A spec verb for resource requests; the lower-case HTTP method for non-resource requests. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** An authorizer's answer; `no-opinion` lets the next authorizer of a chain decide. */
export type AuthorizationDecision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  readonly decision: AuthorizationDecision;
  /** Why; appended to the 403 message (may be ''). */
  readonly reason: string;
}

/**
 * Decides whether a request may proceed (spec doc 2 §3). Anything but `allow` is a 403 Forbidden.
 * May return a promise (webhooks); a synchronous answer keeps the request on the fast path.
 */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
}

const allowed: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });

/** Allows every request (the server's default until an authorizer is configured). */
export const alwaysAllowAuthorizer: Authorizer = Object.freeze({ authorize: () => allowed });

/** The 403 of a denied request, with upstream's wording (`User "u" cannot list resource …`). */
export function forbiddenError(a: AuthorizationAttributes, reason: string): ApiError {
  const suffix = reason === '' ? '' : `: ${reason}`;
  if (!a.isResourceRequest)
    return new ApiError(
      403,
      'Forbidden',
      `forbidden: User "${a.user.username}" cannot ${a.verb} path "${a.path}"${suffix}`,
    );
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const scope = a.namespace === '' ? 'at the cluster scope' : `in the namespace "${a.namespace}"`;
  return errors.forbidden(
    { group: a.apiGroup, resource: a.resource },
    a.name,
    `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${scope}${suffix}`,
  );
}

/**
 * Asks the authorizer about every authenticated request; an unauthenticated request to a public
 * path (no `ctx.user`) is not asked about.
 */
export function authorizationFilter(authorizer: Authorizer): Filter {
  // Allow-all needs no attributes: the request goes on at the cost of one call.
  if (authorizer === alwaysAllowAuthorizer) return (_ctx, next) => next();
  return (ctx, next) => {
    const user = ctx.user;
    if (!user) return next();
    const { info } = ctx;
    const attributes: AuthorizationAttributes = {
      user,
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      namespace: info.namespace,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
    };
    const result = authorizer.authorize(attributes);
    if (result instanceof Promise)
      return result.then((r) => {
        if (r.decision !== 'allow') throw forbiddenError(attributes, r.reason);
        return next();
      });
    if (result.decision !== 'allow') throw forbiddenError(attributes, result.reason);
    return next();
  };
}
