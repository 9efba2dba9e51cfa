import {
  type AuthorizationAttributes,
  type Authorizer,
  createPrivilegedGroupsAuthorizer,
} from '@orchard/authz';
import { errors, type Flavor, type UserInfo } from '@orchard/meta';
import { forbiddenError } from './authorization.js';
import type { Filter, FilterContext, Next } from './filter.js';

const userHeader = 'impersonate-user';
const uidHeader = 'impersonate-uid';
const groupHeader = 'impersonate-group';
const extraPrefix = 'impersonate-extra-';
const serviceAccountPrefix = 'system:serviceaccount:';

/**
 * The authorizer the impersonation checks use while the server has none (allow-all): only
 * `system:masters` may impersonate, so allow-all never lets any caller become anyone.
 */
export const mastersOnlyImpersonationAuthorizer: Authorizer = createPrivilegedGroupsAuthorizer();

/** Percent-decodes an extra key (`Impersonate-Extra-acme.com%2fproject`); a bad escape keeps the raw text. */
function decodeExtraKey(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** One `impersonate` check (doc 2 §4.4): the resource is what is being impersonated. */
function check(
  user: UserInfo,
  apiGroup: string,
  resource: string,
  name: string,
  extra: { namespace?: string; subresource?: string } = {},
): AuthorizationAttributes {
  return {
    user,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    apiGroup,
    apiVersion: '',
    namespace: extra.namespace ?? '',
    resource,
    subresource: extra.subresource ?? '',
    name,
  };
}

/** Whether any raw header name (even positions of `rawHeaders`) starts with `Impersonate-`, in any case. */
function hasImpersonationHeader(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length > 12 && name.slice(0, 12).toLowerCase() === 'impersonate-') return true;
  }
  return false;
}

/** The headers of one request, values kept separate (never comma-joined). */
type Headers = Readonly<Record<string, readonly string[] | undefined>>;

/** Reads the impersonation headers; undefined when there are none. 400 for extras, groups or uid without a user. */
export function parseImpersonation(headers: Headers):
  | {
      readonly username: string;
      readonly uid: string | undefined;
      readonly groups: readonly string[] | undefined;
      readonly extra: Readonly<Record<string, readonly string[]>>;
    }
  | undefined {
  const username = headers[userHeader]?.[0];
  const uid = headers[uidHeader]?.[0];
  const groups = headers[groupHeader];
  const extra: Record<string, string[]> = Object.create(null);
  for (const [name, values] of Object.entries(headers)) {
    if (!name.startsWith(extraPrefix) || !values) continue;
    const key = decodeExtraKey(name.slice(extraPrefix.length));
    if (key === '') continue;
    const list = extra[key] ?? [];
    list.push(...values);
    extra[key] = list;
  }
  const hasOther = uid !== undefined || groups !== undefined || Object.keys(extra).length > 0;
  if (username === undefined || username === '') {
    if (hasOther)
      throw errors.badRequest(
        'requested impersonation of groups, extra or uid without impersonating a user (Impersonate-User)',
      );
    return undefined;
  }
  // Copied into an ordinary object with own properties only: a `__proto__` key stays a key.
  const plain: Record<string, readonly string[]> = {};
  for (const k of Object.keys(extra))
    Object.defineProperty(plain, k, {
      value: extra[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { username, uid, groups, extra: plain };
}

/**
 * Impersonation (spec doc 2 §4.4): `Impersonate-User`, `-Group` (repeatable), `-Uid` and
 * `-Extra-<name>` (percent-decoded, lower-case). The caller needs `impersonate` on `users` (or
 * `serviceaccounts` in the account's namespace for `system:serviceaccount:<ns>:<name>`), on `groups`,
 * on `userextras/<name>` and on `uids` (the last two in `authentication.<domain>`), each with the value
 * as resource name; any denial is 403 and nothing is replaced. Then `ctx.user` becomes the impersonated
 * user, with `system:authenticated` (or `system:unauthenticated` for `system:anonymous`), and the
 * headers are removed so nothing later acts on them.
 */
export function impersonationFilter(authorizer: Authorizer, flavor: Flavor): Filter {
  const authGroup = flavor.group('authentication');
  // Most requests impersonate no one: look at the raw header names (no promise, no headersDistinct).
  return (ctx, next) => (hasImpersonationHeader(ctx.req.rawHeaders) ? impersonate(ctx, next) : next());
  async function impersonate(ctx: FilterContext, next: Next): Promise<void> {
    const headers = ctx.req.headersDistinct as Headers;
    const wanted = parseImpersonation(headers);
    if (!wanted) return next();
    const caller = ctx.user;
    if (!caller) throw errors.unauthorized();
    const checks: AuthorizationAttributes[] = [];
    let groups = wanted.groups ? [...wanted.groups] : undefined;
    if (wanted.username.startsWith(serviceAccountPrefix)) {
      const [ns = '', name = ''] = wanted.username.slice(serviceAccountPrefix.length).split(':', 2);
      checks.push(check(caller, '', 'serviceaccounts', name, { namespace: ns }));
      // As upstream: an impersonated service account without explicit groups gets its own.
      groups ??= ['system:serviceaccounts', `system:serviceaccounts:${ns}`];
    } else {
      checks.push(check(caller, '', 'users', wanted.username));
    }
    for (const g of wanted.groups ?? []) checks.push(check(caller, '', 'groups', g));
    for (const [key, values] of Object.entries(wanted.extra))
      for (const v of values) checks.push(check(caller, authGroup, 'userextras', v, { subresource: key }));
    if (wanted.uid !== undefined) checks.push(check(caller, authGroup, 'uids', wanted.uid));
    for (const a of checks) {
      const r = await authorizer.authorize(a);
      if (r.decision !== 'allow') throw forbiddenError(a, r.reason);
    }
    const finalGroups = groups ?? [];
    const anonymous = wanted.username === 'system:anonymous';
    const implied = anonymous ? 'system:unauthenticated' : 'system:authenticated';
    const user: UserInfo = {
      username: wanted.username,
      groups: finalGroups.includes(implied) ? finalGroups : [...finalGroups, implied],
      ...(wanted.uid !== undefined ? { uid: wanted.uid } : {}),
      ...(Object.keys(wanted.extra).length > 0 ? { extra: wanted.extra } : {}),
    };
    for (const name of Object.keys(ctx.req.headers))
      if (name === userHeader || name === uidHeader || name === groupHeader || name.startsWith(extraPrefix))
        delete ctx.req.headers[name];
    ctx.user = user;
    return next();
  }
}
