/**
 * The data of the RBAC benchmarks (shared by @orchard/rbac's and @orchard/authz's): 1,000 roles (500
 * ClusterRoles, 500 Roles over 100 namespaces), 10,000 bindings (2,000 ClusterRoleBindings to users
 * and groups, 8,000 RoleBindings to users and service accounts), 256 mixed queries, and the naive
 * evaluator that scans every binding per decision (upstream's approach) as the baseline.
 */
import type { UserInfo } from '@orchard/meta';
import {
  type ClusterRole,
  type ClusterRoleBinding,
  createRbacEvaluator,
  type RbacAttributes,
  type Role,
  type RoleBinding,
  ruleAllows,
  subjectAppliesTo,
} from '../src/index.js';

const G = 'rbac.authorization.k8s.io';
const NS = 100;
const resources = ['pods', 'configmaps', 'secrets', 'services', 'deployments', 'jobs', 'leases', 'events'];
export const clusterRoles: ClusterRole[] = [];
export const roles: Role[] = [];
for (let i = 0; i < 500; i++) {
  clusterRoles.push({
    metadata: { name: `cr-${i}` },
    rules: [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: ['', 'apps'],
        resources: [resources[i % 8] as string, resources[(i + 3) % 8] as string],
      },
      { verbs: ['create', 'update'], apiGroups: ['batch'], resources: ['jobs'], resourceNames: [`job-${i}`] },
    ],
  });
  roles.push({
    metadata: { name: `role-${i}`, namespace: `ns-${i % NS}` },
    rules: [{ verbs: ['*'], apiGroups: [''], resources: [resources[(i + 5) % 8] as string] }],
  });
}
const USERS = 2000;
export const crbs: ClusterRoleBinding[] = [];
export const rbs: RoleBinding[] = [];
for (let i = 0; i < 2000; i++) {
  crbs.push({
    metadata: { name: `crb-${i}` },
    subjects: [
      {
        kind: i % 4 === 0 ? 'Group' : 'User',
        name: i % 4 === 0 ? `team-${i % 50}` : `user-${(i * 7) % USERS}`,
        apiGroup: G,
      },
    ],
    roleRef: { kind: 'ClusterRole', name: `cr-${i % 500}`, apiGroup: G },
  });
}
for (let i = 0; i < 8000; i++) {
  const ns = `ns-${i % NS}`;
  rbs.push({
    metadata: { name: `rb-${i}`, namespace: ns },
    subjects: [
      { kind: 'User', name: `user-${(i * 13) % USERS}`, apiGroup: G },
      { kind: 'ServiceAccount', name: `sa-${i % 20}`, namespace: ns },
    ],
    roleRef:
      i % 2 === 0
        ? { kind: 'Role', name: `role-${(i % 5) * NS + (i % NS)}`, apiGroup: G }
        : { kind: 'ClusterRole', name: `cr-${i % 500}`, apiGroup: G },
  });
}

export const rbac = createRbacEvaluator();
clusterRoles.forEach(rbac.setClusterRole);
roles.forEach(rbac.setRole);
crbs.forEach(rbac.setClusterRoleBinding);
rbs.forEach(rbac.setRoleBinding);

// The naive evaluator: every ClusterRoleBinding, then every RoleBinding of the namespace's list (as
// upstream walks all bindings through its listers), matching subjects then rules.
const crMap = new Map(clusterRoles.map((r) => [r.metadata.name, r]));
const roleMap = new Map(roles.map((r) => [`${r.metadata.namespace}/${r.metadata.name}`, r]));
export function naive(user: UserInfo, a: RbacAttributes): boolean {
  for (const b of crbs) {
    if (!(b.subjects ?? []).some((s) => subjectAppliesTo(s, user, ''))) continue;
    for (const r of crMap.get(b.roleRef.name)?.rules ?? []) if (ruleAllows(r, a)) return true;
  }
  const ns = a.resourceRequest ? (a.namespace ?? '') : '';
  if (!ns) return false;
  for (const b of rbs) {
    if (b.metadata.namespace !== ns) continue;
    if (!(b.subjects ?? []).some((s) => subjectAppliesTo(s, user, ns))) continue;
    const rules =
      b.roleRef.kind === 'Role'
        ? roleMap.get(`${ns}/${b.roleRef.name}`)?.rules
        : crMap.get(b.roleRef.name)?.rules;
    for (const r of rules ?? []) if (ruleAllows(r, a)) return true;
  }
  return false;
}

export const queries: [UserInfo, RbacAttributes][] = [];
for (let i = 0; i < 256; i++) {
  const user: UserInfo = {
    username: `user-${(i * 31) % USERS}`,
    groups: ['system:authenticated', `team-${i % 50}`],
  };
  const attrs: RbacAttributes = {
    resourceRequest: true,
    verb: ['get', 'list', 'delete', 'create'][i % 4] as string,
    apiGroup: i % 3 === 0 ? 'apps' : '',
    resource: resources[i % 8] as string,
    namespace: `ns-${i % NS}`,
    name: i % 4 === 1 ? undefined : `obj-${i}`,
  };
  queries.push([user, attrs]);
}
