import { type ApiObject, newUid, nowRfc3339, type StoredObject } from '@orchard/meta';
import { jsonEqual } from '@orchard/meta/internal';
import {
  autoupdateAnnotation,
  type ClusterRole,
  defaultPolicy,
  type PolicyRule,
  type Subject,
} from '@orchard/rbac';
import { isStoreError } from '@orchard/store';
import type { ServerState } from '../state.js';
import { rbacGroup } from './rbac-resources.js';

type Obj = Record<string, any>;

const key = (x: unknown) => JSON.stringify(x);

/** `existing` plus the entries of `expected` it lacks; `existing` itself (even null) when it lacks none. */
function union<T>(
  existing: readonly T[] | null | undefined,
  expected: readonly T[] | null | undefined,
  id: (t: T) => string,
): readonly T[] | null | undefined {
  const seen = new Set((existing ?? []).map(id));
  const missing = (expected ?? []).filter((x) => !seen.has(id(x)));
  return missing.length === 0 ? existing : [...(existing ?? []), ...missing];
}
const ruleId = (r: PolicyRule) =>
  key([r.verbs, r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);
const subjectId = (s: Subject) => key([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);

/**
 * Upstream's reconciliation of one default object with what is stored: missing labels, annotations,
 * rules (or, for an aggregated role, selectors) and subjects are added; nothing is removed. Returns
 * `undefined` when nothing changes, `'recreate'` when a binding's roleRef differs (it is immutable).
 */
function reconciled(
  existing: StoredObject,
  expected: Obj,
  binding: boolean,
): ApiObject | 'recreate' | undefined {
  const out: Obj = { ...existing, metadata: { ...existing.metadata } };
  for (const field of ['labels', 'annotations'] as const) {
    const want = expected.metadata[field] ?? {};
    if (Object.keys(want).length > 0) out.metadata[field] = { ...want, ...(existing.metadata[field] ?? {}) };
  }
  if (binding) {
    if (key(existing.roleRef) !== key(expected.roleRef)) return 'recreate';
    const subjects = union(existing.subjects as Subject[], expected.subjects, subjectId);
    if (subjects !== existing.subjects) out.subjects = subjects;
  } else if ((expected as ClusterRole).aggregationRule) {
    const selectors = union(
      (existing.aggregationRule as Obj | undefined)?.clusterRoleSelectors,
      expected.aggregationRule.clusterRoleSelectors,
      key,
    );
    if (selectors !== (existing.aggregationRule as Obj | undefined)?.clusterRoleSelectors)
      out.aggregationRule = { ...(existing.aggregationRule ?? {}), clusterRoleSelectors: selectors };
  } else {
    const rules = union(existing.rules as PolicyRule[], expected.rules, ruleId);
    if (rules !== existing.rules) out.rules = rules;
  }
  // Semantic comparison: a restart that changes nothing writes nothing (no new revision).
  return jsonEqual(out, existing) ? undefined : (out as ApiObject);
}

/**
 * Creates the default ClusterRoles, ClusterRoleBindings, Roles and RoleBindings of release 1.32
 * (translated to the flavor, `@orchard/rbac` `defaultPolicy`) and reconciles existing ones at every
 * start, unless an object carries `rbac.authorization.<domain>/autoupdate: "false"` (spec doc 2 §5.3).
 */
export async function reconcileDefaultPolicy(state: ServerState): Promise<void> {
  const group = rbacGroup(state.flavor);
  if (!state.registry.get(group, 'clusterroles')) return;
  const policy = defaultPolicy(state.flavor);
  const noUpdate = autoupdateAnnotation(state.flavor);
  const kinds: [string, boolean, readonly Obj[]][] = [
    ['clusterroles', false, policy.clusterRoles],
    ['clusterrolebindings', true, policy.clusterRoleBindings],
    ['roles', false, policy.roles],
    ['rolebindings', true, policy.roleBindings],
  ];
  const creationTimestamp = nowRfc3339();
  for (const [resource, binding, list] of kinds) {
    for (const expected of list) {
      const namespace: string = expected.metadata.namespace ?? '';
      const k = state.objects.key({ group, resource, namespace }, expected.metadata.name);
      const fresh = () =>
        ({ ...expected, metadata: { ...expected.metadata, uid: newUid(), creationTimestamp } }) as ApiObject;
      const { object: existing } = await state.objects.get(k);
      if (!existing) {
        try {
          await state.objects.create(k, fresh());
        } catch (e) {
          if (!isStoreError(e, 'AlreadyExists')) throw e;
        }
        continue;
      }
      if (existing.metadata.annotations?.[noUpdate] === 'false') continue;
      const next = reconciled(existing, expected, binding);
      if (next === undefined) continue;
      if (next === 'recreate') {
        await state.objects.delete(k);
        await state.objects.create(k, fresh());
        continue;
      }
      await state.objects.update(k, (current) => {
        const r = reconciled(current, expected, binding);
        return r === undefined || r === 'recreate' ? current : r;
      });
    }
  }
}
