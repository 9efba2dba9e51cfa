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

export interface RbacObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>> | null;
  readonly annotations?: Readonly<Record<string, string>> | null;
}

export interface AggregationRule {
  readonly clusterRoleSelectors?: readonly LabelSelector[] | null;
}

export interface Role {
  readonly kind?: 'Role';
  readonly metadata: RbacObjectMeta;
  readonly rules?: readonly PolicyRule[] | null;
}

export interface ClusterRole {
  readonly kind?: 'ClusterRole';
  readonly metadata: RbacObjectMeta;
  readonly rules?: readonly PolicyRule[] | null;
  readonly aggregationRule?: AggregationRule | null;
}

export type SubjectKind = 'User' | 'Group' | 'ServiceAccount';

export interface Subject {
  readonly kind: SubjectKind | string;
  readonly name: string;
  readonly apiGroup?: string;
  readonly namespace?: string;
}

export interface RoleRef {
  readonly kind: 'Role' | 'ClusterRole' | string;
  readonly name: string;
  readonly apiGroup: string;
}

export interface RoleBinding {
  readonly kind?: 'RoleBinding';
  readonly metadata: RbacObjectMeta;
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef: RoleRef;
}

export interface ClusterRoleBinding {
  readonly kind?: 'ClusterRoleBinding';
  readonly metadata: RbacObjectMeta;
  readonly subjects?: readonly Subject[] | null;
  readonly roleRef: RoleRef;
}
