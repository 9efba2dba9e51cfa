import type { Flavor } from '@orchard/meta';
import { startTestServer, type TestServer, type TestUser } from '@orchard/testing';

type Obj = Record<string, any>;

/** RBAC objects and paths in a flavor's groups (`rbac.authorization.<domain>`, `authorization.<domain>`). */
export interface RbacFixtures {
  /** `rbac.authorization.<domain>`. */
  readonly G: string;
  /** `/apis/rbac.authorization.<domain>/v1`. */
  readonly RBAC: string;
  /** `authorization.<domain>`. */
  readonly AG: string;
  /** `/apis/authorization.<domain>/v1`. */
  readonly AUTHZ: string;
  role(name: string, rules: Obj[], ns?: string): Obj;
  binding(name: string, roleKind: string, roleName: string, user: string, ns?: string): Obj;
  clusterRole(name: string, rules: Obj[], labels?: Record<string, string>): Obj;
  clusterRoleBinding(name: string, roleName: string, subject: Obj): Obj;
  /** A SubjectAccessReview with this spec. */
  sar(spec: Obj): Obj;
}

/** The fixtures of `flavor`. */
export function rbacFixtures(flavor: Flavor): RbacFixtures {
  const G = flavor.group('rbac.authorization');
  const AG = flavor.group('authorization');
  return {
    G,
    RBAC: `/apis/${G}/v1`,
    AG,
    AUTHZ: `/apis/${AG}/v1`,
    role: (name, rules, ns = 'team') => ({
      apiVersion: `${G}/v1`,
      kind: 'Role',
      metadata: { name, namespace: ns },
      rules,
    }),
    binding: (name, roleKind, roleName, user, ns = 'team') => ({
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name, namespace: ns },
      subjects: [{ kind: 'User', name: user, apiGroup: G }],
      roleRef: { kind: roleKind, name: roleName, apiGroup: G },
    }),
    clusterRole: (name, rules, labels) => ({
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name, ...(labels ? { labels } : {}) },
      rules,
    }),
    clusterRoleBinding: (name, roleName, subject) => ({
      apiVersion: `${G}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      subjects: [subject],
      roleRef: { kind: 'ClusterRole', name: roleName, apiGroup: G },
    }),
    sar: (spec) => ({ apiVersion: `${AG}/v1`, kind: 'SubjectAccessReview', spec }),
  };
}

/** An object without its server-set metadata (uid, creationTimestamp, resourceVersion, managedFields). */
export function stripServerMetadata(o: Obj): Obj {
  const { uid: _u, creationTimestamp: _c, resourceVersion: _r, managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

/** The user without bindings of the authorization suites. */
export const bob: TestUser = { username: 'bob' };
/** The user of group `team-a` the authorization suites bind. */
export const carol: TestUser = { username: 'carol', groups: ['team-a'] };

/** A test server of `flavor` with the namespaces `team` and `other` the authorization suites use. */
export async function startRbacTestServer(flavor: 'orch' | 'kubernetes'): Promise<TestServer> {
  const api = await startTestServer({ flavor });
  for (const ns of ['team', 'other']) {
    const r = await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    if (r.status !== 201) throw new Error(`creating namespace ${ns}: ${r.status} ${r.text}`);
  }
  return api;
}
