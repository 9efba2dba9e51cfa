/**
 * The role-based access objects of spec doc 2 §2.3 (`rbac.authorization.<domain>/v1`), as plain data.
 * Objects carry only the fields authorization reads; the server stores the full objects.
 */
import type { LabelSelector } from '@orchard/meta';

/** One `rules[]` entry. Empty `resourceNames` means no restriction; `nonResourceURLs` only in cluster roles. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resourceNames?: readonly string[] | null;
  readonly nonResourceURLs?: readonly string[] | null;
}

/**
 * The metadata RBAC reads of its four kinds: `name`, `namespace` (absent or `""` for cluster roles and
 * bindings), and the `labels` that aggregation selectors match; `annotations` are carried for the bootstrap
 * autoupdate annotation only.
 */
export interface RbacObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>> | null;
  readonly annotations?: Readonly<Record<string, string>> | null;
}

/**
 * How a ClusterRole gathers the rules of other cluster roles: its rules become the union of the rules of
 * every ClusterRole whose labels match any of `clusterRoleSelectors`; empty or absent selectors aggregate
 * nothing.
 */
export interface AggregationRule {
  readonly clusterRoleSelectors?: readonly LabelSelector[] | null;
}

/**
 * A namespaced set of rules; it grants nothing until a RoleBinding in the same namespace names it, and its
 * `rules` may not hold `nonResourceURLs` (rejected by `validateRules` when `namespaced`).
 */
export interface Role {
  readonly kind?: 'Role';
  readonly metadata: RbacObjectMeta;
  readonly rules?: readonly PolicyRule[] | null;
}

/**
 * A cluster-wide set of rules, granted through a ClusterRoleBinding (everywhere) or a RoleBinding (in that
 * binding's namespace only); with `aggregationRule` set, its `rules` are maintained from the roles its
 * selectors match.
 */
export interface ClusterRole {
  readonly kind?: 'ClusterRole';
  readonly metadata: RbacObjectMeta;
  readonly rules?: readonly PolicyRule[] | null;
  readonly aggregationRule?: AggregationRule | null;
}

/**
 * The subject kinds a binding may name; any other kind is rejected by validation and never matches a caller.
 */
export type SubjectKind = 'User' | 'Group' | 'ServiceAccount';

/**
 * Who a binding grants to: a `User` or `Group` by exact, case-sensitive name with `apiGroup`
 * `rbac.authorization.<domain>`, or a `ServiceAccount` by `namespace` and `name` with an empty `apiGroup`
 * (its user is `system:serviceaccount:<namespace>:<name>`).
 */
export interface Subject {
  readonly kind: SubjectKind | string;
  readonly name: string;
  readonly apiGroup?: string;
  readonly namespace?: string;
}

/**
 * The role a binding grants: `kind` `Role` (only from a RoleBinding, resolved in the binding's namespace) or
 * `ClusterRole`, in the RBAC `apiGroup`; a reference to a missing role grants nothing and is not an error.
 */
export interface RoleRef {
  readonly kind: 'Role' | 'ClusterRole' | string;
  readonly name: string;
  readonly apiGroup: string;
}

/**
 * Grants the rules of its `roleRef` to its `subjects` within the binding's namespace only, whether the ref
 * names a Role or a ClusterRole.
 */
export interface RoleBinding {
  readonly kind?: 'RoleBinding';
  readonly metadata: RbacObjectMeta;
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef: RoleRef;
}

/**
 * Grants the rules of the ClusterRole its `roleRef` names to its `subjects` in every namespace and for
 * non-resource URLs.
 */
export interface ClusterRoleBinding {
  readonly kind?: 'ClusterRoleBinding';
  readonly metadata: RbacObjectMeta;
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef: RoleRef;
}
