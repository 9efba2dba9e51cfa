/**
 * Whether one policy rule allows a request (spec doc 2 §2.3): `*` matches every verb, group and
 * resource; `""` is the core group; `<resource>/<subresource>` names a sub-resource (`*\/status`,
 * `pods/*` as wildcards); non-empty `resourceNames` allow only named requests, so never `create` or
 * `deletecollection` and `list`/`watch` only with a `metadata.name` field selector; a non-resource URL
 * with a trailing `*` matches every path with that prefix.
 */
import type { NonResourceAttributes, RbacAttributes, ResourceAttributes } from './attributes.js';
import type { PolicyRule } from './types.js';

function has(list: readonly string[] | null | undefined, value: string): boolean {
  if (!list) return false;
  for (const v of list) if (v === '*' || v === value) return true;
  return false;
}

/** Whether `rule.verbs` holds `verb` or `*`; exact, case-sensitive comparison. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return has(rule.verbs, verb);
}

/**
 * Whether `rule.apiGroups` holds `group` or `*`; `""` is the core group, and an absent or empty list matches
 * nothing.
 */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return has(rule.apiGroups, group);
}

/**
 * Whether `rule.resources` covers `resource` (with `subresource` as `<resource>/<subresource>`): `*` matches
 * everything, `<resource>/*` every sub-resource of that resource, `*\/<subresource>` that sub-resource of
 * every resource; a plain `<resource>` does not cover its sub-resources.
 */
export function resourceMatches(
  rule: PolicyRule,
  resource: string,
  subresource: string | undefined,
): boolean {
  const rs = rule.resources;
  if (!rs) return false;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of rs) {
    if (r === '*' || r === combined) return true;
    if (!subresource) continue;
    // `pods/*` covers every sub-resource of pods; `*/status` the status of every resource.
    if (r === `${resource}/*` || r === `*/${subresource}`) return true;
  }
  return false;
}

/**
 * Whether `rule.resourceNames` allows `name`: an absent or empty list allows every request, a non-empty one
 * only a request naming one of its entries exactly (so never an unnamed `create`, `list` or
 * `deletecollection`).
 */
export function resourceNameMatches(rule: PolicyRule, name: string | undefined): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  if (!name) return false;
  return names.includes(name);
}

/**
 * Whether `rule.nonResourceURLs` covers `path`: `*`, the exact path, or an entry ending in `*` as a prefix
 * match (`/healthz/*`); an absent list matches nothing.
 */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  const urls = rule.nonResourceURLs;
  if (!urls) return false;
  for (const u of urls) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

/**
 * Whether `rule` allows a resource request: verb, API group, resource (with sub-resource) and resource name
 * must all match.
 */
export function ruleAllowsResource(rule: PolicyRule, a: ResourceAttributes): boolean {
  return (
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, a.resource, a.subresource) &&
    resourceNameMatches(rule, a.name)
  );
}

/** Whether `rule` allows a non-resource request: verb and URL must both match. */
export function ruleAllowsNonResource(rule: PolicyRule, a: NonResourceAttributes): boolean {
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

/** True when `rule` allows the request. */
export function ruleAllows(rule: PolicyRule, a: RbacAttributes): boolean {
  return a.resourceRequest ? ruleAllowsResource(rule, a) : ruleAllowsNonResource(rule, a);
}

/** True when any rule allows the request. */
export function rulesAllow(rules: readonly PolicyRule[] | null | undefined, a: RbacAttributes): boolean {
  if (!rules) return false;
  for (const r of rules) if (ruleAllows(r, a)) return true;
  return false;
}
