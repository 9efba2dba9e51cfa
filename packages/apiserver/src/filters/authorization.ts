import { type AuthorizationAttributes, type Authorizer, alwaysAllowAuthorizer } from '@orchard/authz';
import { ApiError, errors } from '@orchard/meta';
import { nameFromFieldSelector } from '@orchard/rbac';
import { addAuditAnnotation } from '../audit/record.js';
import { featureEnabled } from '../feature-gates.js';
import type { Filter, FilterContext } from './filter.js';

export type {
  AuthorizationAttributes,
  AuthorizationDecision,
  AuthorizationResult,
  Authorizer,
} from '@orchard/authz';
export { alwaysAllowAuthorizer } from '@orchard/authz';

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

const selectorVerbs = new Set(['list', 'watch', 'deletecollection']);

/**
 * The attributes of one request (upstream's `GetAuthorizerAttributes`): the resolved RequestInfo; a
 * list/watch without a name takes the name of a `metadata.name` field selector (so `resourceNames`
 * can allow it); with `AuthorizeWithSelectors` the raw selectors of a list, watch or
 * deletecollection go along for authorizers that read them.
 */
export function requestAttributes(
  ctx: FilterContext,
  withSelectors: boolean,
): AuthorizationAttributes | undefined {
  const user = ctx.user;
  if (!user) return undefined;
  const { info } = ctx;
  let name = info.name;
  let fieldSelector: string | undefined;
  let labelSelector: string | undefined;
  if (info.isResourceRequest && selectorVerbs.has(info.verb)) {
    const fs = ctx.searchParams.get('fieldSelector') ?? undefined;
    if (name === '' && info.verb !== 'deletecollection') name = nameFromFieldSelector(fs) ?? '';
    if (withSelectors) {
      fieldSelector = fs;
      labelSelector = ctx.searchParams.get('labelSelector') ?? undefined;
    }
  }
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name,
    ...(fieldSelector !== undefined ? { fieldSelector } : {}),
    ...(labelSelector !== undefined ? { labelSelector } : {}),
  };
}

/** Upstream's audit annotations of the decision: `authorization.<domain>/decision` (`allow`/`forbid`) and `/reason`. */
function annotate(ctx: FilterContext, r: { decision: string; reason: string }): void {
  const prefix = `authorization.${ctx.server.flavor.domain}`;
  addAuditAnnotation(ctx.req, `${prefix}/decision`, r.decision === 'allow' ? 'allow' : 'forbid');
  addAuditAnnotation(ctx.req, `${prefix}/reason`, r.reason);
}

/**
 * Asks the authorizer about every authenticated request; anything but `allow` is 403 Forbidden. An
 * unauthenticated request to a public path (no `ctx.user`) is not asked about.
 */
export function authorizationFilter(authorizer: Authorizer): Filter {
  // Allow-all needs no attributes: the request goes on at the cost of one call.
  if (authorizer === alwaysAllowAuthorizer) return (_ctx, next) => next();
  return (ctx, next) => {
    const attributes = requestAttributes(
      ctx,
      featureEnabled(ctx.server.options.featureGates, 'AuthorizeWithSelectors'),
    );
    if (!attributes) return next();
    const result = authorizer.authorize(attributes);
    if (result instanceof Promise)
      return result.then((r) => {
        annotate(ctx, r);
        if (r.decision !== 'allow') throw forbiddenError(attributes, r.reason);
        return next();
      });
    annotate(ctx, result);
    if (result.decision !== 'allow') throw forbiddenError(attributes, result.reason);
    return next();
  };
}
