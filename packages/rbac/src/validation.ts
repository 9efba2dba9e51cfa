/**
 * Validation of the four RBAC kinds (spec doc 2 §2.3), as field causes for a 422 naming the field:
 * rules need verbs; a resource rule needs apiGroups and resources; non-resource URLs only in cluster
 * roles and never mixed with resources; subjects of a known kind with the right apiGroup (and a
 * namespace for service accounts); roleRef of a supported kind in the RBAC group; path-segment names.
 */
import { type FieldCause, fieldErrors } from '@orchard/meta';
import type { PolicyRule, RoleRef, Subject } from './types.js';

function isList(v: unknown): v is unknown[] {
  return Array.isArray(v);
}

function checkStrings(v: unknown, field: string, out: FieldCause[]): readonly string[] {
  if (v === undefined || v === null) return [];
  if (!isList(v)) {
    out.push(fieldErrors.invalid(field, v, 'must be a list of strings'));
    return [];
  }
  v.forEach((x, i) => {
    if (typeof x !== 'string') out.push(fieldErrors.invalid(`${field}[${i}]`, x, 'must be a string'));
  });
  return v.filter((x): x is string => typeof x === 'string');
}

/** Upstream's path-segment name rule for the names of all four kinds. */
export function validatePathSegmentName(name: string, field: string): FieldCause[] {
  if (name === '.' || name === '..') return [fieldErrors.invalid(field, name, `may not be '${name}'`)];
  for (const bad of ['/', '%'])
    if (name.includes(bad)) return [fieldErrors.invalid(field, name, `may not contain '${bad}'`)];
  return [];
}

/** Causes for one rule at `field` (e.g. `rules[0]`); `namespaced` for a Role. */
export function validatePolicyRule(rule: unknown, field: string, namespaced: boolean): FieldCause[] {
  const out: FieldCause[] = [];
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    return [fieldErrors.invalid(field, rule, 'must be an object')];
  }
  const r = rule as Record<string, unknown>;
  const verbs = checkStrings(r.verbs, `${field}.verbs`, out);
  const groups = checkStrings(r.apiGroups, `${field}.apiGroups`, out);
  const resources = checkStrings(r.resources, `${field}.resources`, out);
  checkStrings(r.resourceNames, `${field}.resourceNames`, out);
  const urls = checkStrings(r.nonResourceURLs, `${field}.nonResourceURLs`, out);
  if (verbs.length === 0)
    out.push(fieldErrors.required(`${field}.verbs`, 'verbs must contain at least one value'));
  if (urls.length > 0) {
    if (namespaced) {
      out.push(
        fieldErrors.invalid(
          `${field}.nonResourceURLs`,
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    }
    if (groups.length > 0 || resources.length > 0) {
      out.push(
        fieldErrors.invalid(
          `${field}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return out;
  }
  if (groups.length === 0)
    out.push(fieldErrors.required(`${field}.apiGroups`, 'resource rules must supply at least one api group'));
  if (resources.length === 0)
    out.push(fieldErrors.required(`${field}.resources`, 'resource rules must supply at least one resource'));
  return out;
}

/**
 * Validates a `rules` list of client data without throwing, returning one field cause per problem under
 * `field` (default `rules`, as `rules[i].verbs`): not a list, missing verbs, a resource rule without
 * apiGroups or resources, URLs mixed with resources, or (when `namespaced`, i.e. for a Role) any `nonResourceURLs`. `null`/absent rules
 * are valid; an empty result means valid. Does not mutate `rules`.
 */
export function validateRules(rules: unknown, namespaced: boolean, field = 'rules'): FieldCause[] {
  if (rules === undefined || rules === null) return [];
  if (!isList(rules)) return [fieldErrors.invalid(field, rules, 'must be a list')];
  return rules.flatMap((r, i) => validatePolicyRule(r as PolicyRule, `${field}[${i}]`, namespaced));
}

/** Causes for `subjects[i]`; `rbacGroup` is `rbac.authorization.<domain>`. */
export function validateSubject(s: unknown, field: string, rbacGroup: string): FieldCause[] {
  if (typeof s !== 'object' || s === null || Array.isArray(s))
    return [fieldErrors.invalid(field, s, 'must be an object')];
  const subj = s as Partial<Subject>;
  const out: FieldCause[] = [];
  if (typeof subj.name !== 'string' || subj.name === '') out.push(fieldErrors.required(`${field}.name`));
  switch (subj.kind) {
    case 'ServiceAccount':
      if (subj.apiGroup) out.push(fieldErrors.notSupported(`${field}.apiGroup`, subj.apiGroup, ['']));
      if (!subj.namespace) out.push(fieldErrors.required(`${field}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (subj.apiGroup !== rbacGroup)
        out.push(fieldErrors.notSupported(`${field}.apiGroup`, subj.apiGroup ?? '', [rbacGroup]));
      break;
    default:
      out.push(
        fieldErrors.notSupported(`${field}.kind`, subj.kind ?? '', ['ServiceAccount', 'User', 'Group']),
      );
  }
  return out;
}

/** Causes for `roleRef`; a ClusterRoleBinding may reference only a ClusterRole. */
export function validateRoleRef(ref: unknown, rbacGroup: string, clusterBinding: boolean): FieldCause[] {
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return [fieldErrors.required('roleRef')];
  const r = ref as Partial<RoleRef>;
  const out: FieldCause[] = [];
  const kinds = clusterBinding ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (r.apiGroup !== rbacGroup)
    out.push(fieldErrors.notSupported('roleRef.apiGroup', r.apiGroup ?? '', [rbacGroup]));
  if (!kinds.includes(r.kind ?? '')) out.push(fieldErrors.notSupported('roleRef.kind', r.kind ?? '', kinds));
  if (typeof r.name !== 'string' || r.name === '') out.push(fieldErrors.required('roleRef.name'));
  else out.push(...validatePathSegmentName(r.name, 'roleRef.name'));
  return out;
}

/** Causes for a RoleBinding or ClusterRoleBinding body. */
export function validateBinding(
  obj: { subjects?: unknown; roleRef?: unknown },
  rbacGroup: string,
  clusterBinding: boolean,
): FieldCause[] {
  const out = validateRoleRef(obj.roleRef, rbacGroup, clusterBinding);
  const subjects = obj.subjects;
  if (subjects !== undefined && subjects !== null) {
    if (!isList(subjects)) out.push(fieldErrors.invalid('subjects', subjects, 'must be a list'));
    else
      subjects.forEach((s, i) => {
        out.push(...validateSubject(s, `subjects[${i}]`, rbacGroup));
      });
  }
  return out;
}

/** `roleRef` may not change on update (delete and recreate instead). */
export function validateRoleRefUpdate(oldRef: RoleRef, newRef: RoleRef): FieldCause[] {
  if (oldRef.kind === newRef.kind && oldRef.name === newRef.name && oldRef.apiGroup === newRef.apiGroup)
    return [];
  return [fieldErrors.invalid('roleRef', newRef, 'cannot change roleRef')];
}
