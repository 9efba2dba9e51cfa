import { type ApiObject, type FieldCause, type Flavor, fieldErrors, nameIsPathSegment } from '@orchard/meta';
import { type RoleRef, validateBinding, validateRoleRefUpdate, validateRules } from '@orchard/rbac';
import { defineResource, type ResourceDefinition } from '../registry/resource.js';

/** `rbac.authorization.<domain>`: the group of the four RBAC kinds (spec doc 2 §2.3). */
export function rbacGroup(flavor: Flavor): string {
  return flavor.group('rbac.authorization');
}

function validateAggregationRule(value: unknown): FieldCause[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return [fieldErrors.invalid('aggregationRule', value, 'must be an object')];
  const selectors = (value as { clusterRoleSelectors?: unknown }).clusterRoleSelectors;
  if (selectors === undefined || selectors === null) return [];
  if (!Array.isArray(selectors))
    return [fieldErrors.invalid('aggregationRule.clusterRoleSelectors', selectors, 'must be a list')];
  const out: FieldCause[] = [];
  selectors.forEach((s, i) => {
    const field = `aggregationRule.clusterRoleSelectors[${i}]`;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) {
      out.push(fieldErrors.invalid(field, s, 'must be a label selector'));
      return;
    }
    const ml = (s as { matchLabels?: unknown }).matchLabels;
    if (ml !== undefined && ml !== null && (typeof ml !== 'object' || Array.isArray(ml)))
      out.push(fieldErrors.invalid(`${field}.matchLabels`, ml, 'must be a map of strings'));
    else if (ml)
      for (const [k, v] of Object.entries(ml))
        if (typeof v !== 'string')
          out.push(fieldErrors.invalid(`${field}.matchLabels.${k}`, v, 'must be a string'));
    const me = (s as { matchExpressions?: unknown }).matchExpressions;
    if (me !== undefined && me !== null && !Array.isArray(me))
      out.push(fieldErrors.invalid(`${field}.matchExpressions`, me, 'must be a list'));
  });
  return out;
}

function roleDefinition(flavor: Flavor, cluster: boolean): ResourceDefinition {
  return defineResource({
    group: rbacGroup(flavor),
    versions: ['v1'],
    resource: cluster ? 'clusterroles' : 'roles',
    kind: cluster ? 'ClusterRole' : 'Role',
    namespaced: !cluster,
    validateName: nameIsPathSegment,
    strategy: {
      validate(obj: ApiObject) {
        const causes = validateRules(obj.rules, !cluster);
        if (cluster) causes.push(...validateAggregationRule(obj.aggregationRule));
        else if (obj.aggregationRule !== undefined)
          causes.push(fieldErrors.forbidden('aggregationRule', 'only cluster roles aggregate'));
        return causes;
      },
    },
  });
}

function bindingDefinition(flavor: Flavor, cluster: boolean): ResourceDefinition {
  const group = rbacGroup(flavor);
  return defineResource({
    group,
    versions: ['v1'],
    resource: cluster ? 'clusterrolebindings' : 'rolebindings',
    kind: cluster ? 'ClusterRoleBinding' : 'RoleBinding',
    namespaced: !cluster,
    validateName: nameIsPathSegment,
    strategy: {
      validate: (obj: ApiObject) =>
        validateBinding(obj as { subjects?: unknown; roleRef?: unknown }, group, cluster),
      // roleRef is immutable (spec doc 2 §2.3): delete and recreate the binding instead.
      validateUpdate: (obj: ApiObject, old) =>
        validateRoleRefUpdate(old.roleRef as RoleRef, (obj.roleRef ?? {}) as RoleRef),
    },
  });
}

/** Role, ClusterRole, RoleBinding, ClusterRoleBinding in `rbac.authorization.<domain>/v1`. */
export function rbacResources(flavor: Flavor): ResourceDefinition[] {
  return [
    roleDefinition(flavor, false),
    roleDefinition(flavor, true),
    bindingDefinition(flavor, false),
    bindingDefinition(flavor, true),
  ];
}
