import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { aggregatedRules, type ClusterRole, defaultPolicy } from '@orchard/rbac';
import { createAndAuthorize, startTestServer, type TestServer, type TestUser } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server.js';

/**
 * Authorization served and enforced (issue 14): RBAC objects in `rbac.authorization.k8s.io/v1`, the
 * default policy, enforcement for users other than `system:masters`, the escalation guard, the
 * aggregation controller and the review resources. Users are client certificates minted from the
 * test CA (CN = user, O = groups).
 */
const G = 'rbac.authorization.k8s.io';
const RBAC = `/apis/${G}/v1`;
const AUTHZ = '/apis/authorization.k8s.io/v1';
const bob: TestUser = { username: 'bob' };
const carol: TestUser = { username: 'carol', groups: ['team-a'] };

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ flavor: 'kubernetes' });
  for (const ns of ['team', 'other']) {
    const r = await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await api.stop();
});

type Obj = Record<string, any>;

/** Creates as the admin and waits until authorization reflects it. */
const adminCreate = (path: string, body: Obj): Promise<Obj> => createAndAuthorize(api, path, body);

function role(name: string, rules: Obj[], ns = 'team'): Obj {
  return { apiVersion: `${G}/v1`, kind: 'Role', metadata: { name, namespace: ns }, rules };
}
function binding(name: string, roleKind: string, roleName: string, user: string, ns = 'team'): Obj {
  return {
    apiVersion: `${G}/v1`,
    kind: 'RoleBinding',
    metadata: { name, namespace: ns },
    subjects: [{ kind: 'User', name: user, apiGroup: G }],
    roleRef: { kind: roleKind, name: roleName, apiGroup: G },
  };
}

function strip(o: Obj): Obj {
  const { uid: _u, creationTimestamp: _c, resourceVersion: _r, managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

describe('the default policy', () => {
  it('a fresh server holds exactly the golden ClusterRoles and bindings; admin/edit/view are aggregated', async () => {
    const golden = defaultPolicy(kubernetesFlavor);
    const crs = ((await api.request('GET', `${RBAC}/clusterroles`)).json as Obj).items as Obj[];
    const crbs = ((await api.request('GET', `${RBAC}/clusterrolebindings`)).json as Obj).items as Obj[];
    const byName = new Map(crs.map((o) => [o.metadata.name, strip(o)]));
    // Aggregation is transitive (edit is labelled aggregate-to-admin): fill until nothing changes.
    const filled = new Map(golden.clusterRoles.map((r) => [r.metadata.name, r as ClusterRole]));
    for (let changed = true, n = 0; changed && n < 10; n++) {
      changed = false;
      for (const [name, r] of filled) {
        const rules = aggregatedRules(r, filled.values());
        if (rules && JSON.stringify(rules) !== JSON.stringify(r.rules ?? [])) {
          filled.set(name, { ...r, rules });
          changed = true;
        }
      }
    }
    expect([...byName.keys()].sort()).toEqual(golden.clusterRoles.map((r) => r.metadata.name).sort());
    for (const want of golden.clusterRoles) {
      const got = byName.get(want.metadata.name) as Obj;
      if (want.aggregationRule) {
        const { rules, ...rest } = got;
        const { rules: _none, ...wantRest } = want as Obj;
        expect(rest).toEqual(wantRest);
        expect(rules).toEqual(filled.get(want.metadata.name)?.rules);
        expect((rules as unknown[]).length).toBeGreaterThan(0);
      } else expect(got).toEqual(want);
    }
    expect(crbs.map(strip).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))).toEqual(
      [...golden.clusterRoleBindings].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)),
    );
    const roles = ((await api.request('GET', `${RBAC}/roles`)).json as Obj).items as Obj[];
    expect(roles.map(strip).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))).toEqual(
      [...golden.roles].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)),
    );
  });

  it('restarts reconcile missing rules and subjects back, except with autoupdate "false"', async () => {
    const { createMemoryStore } = await import('@orchard/store');
    const store = createMemoryStore();
    const first = createApiServer({ flavor: orchFlavor, store });
    await first.ready;
    const group = 'rbac.authorization.orch.io';
    const key = (r: string, n: string) => first.objects.key({ group, resource: r, namespace: '' }, n);
    await first.objects.update(key('clusterroles', 'system:discovery'), (o) => ({ ...o, rules: [] }));
    await first.objects.update(key('clusterroles', 'system:basic-user'), (o) => ({
      ...o,
      metadata: { ...o.metadata, annotations: { 'rbac.authorization.orch.io/autoupdate': 'false' } },
      rules: [],
    }));
    await first.close();
    const second = createApiServer({ flavor: orchFlavor, store });
    await second.ready;
    const discovery = (await second.objects.get(key('clusterroles', 'system:discovery'))).object as Obj;
    const basic = (await second.objects.get(key('clusterroles', 'system:basic-user'))).object as Obj;
    expect(discovery.rules).toEqual(
      defaultPolicy(orchFlavor).clusterRoles.find((r) => r.metadata.name === 'system:discovery')?.rules,
    );
    expect(basic.rules).toEqual([]);
    await second.close();
    await store.close();
  });
});

describe('enforcement for a user without bindings', () => {
  it.each([
    ['GET', '/api/v1/namespaces/team/pods', 403],
    ['GET', '/api/v1/namespaces', 403],
    ['POST', '/api/v1/namespaces/team/configmaps', 403],
    ['GET', '/metrics', 403],
    ['GET', '/openapi/v2', 200],
    ['GET', '/version', 200],
    ['GET', '/healthz', 200],
    ['GET', '/readyz', 200],
    ['GET', '/apis', 200],
    ['GET', '/api/v1', 200],
  ])('%s %s → %i', async (method, path, status) => {
    const r = await api.request(method, path, {
      as: bob,
      ...(method === 'POST'
        ? { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }
        : {}),
    });
    expect(r.status, r.text).toBe(status);
  });

  it('the 403 names user, verb, resource and namespace in upstream words', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/team/pods?watch=1', { as: bob });
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: { kind: 'pods' },
      message:
        'pods is forbidden: User "bob" cannot watch resource "pods" in API group "" in the namespace "team"',
    });
    const p = await api.request('GET', '/metrics', { as: bob });
    expect((p.json as Obj).message).toBe('forbidden: User "bob" cannot get path "/metrics"');
    const c = await api.request('GET', `${RBAC}/clusterroles/admin`, { as: bob });
    expect((c.json as Obj).message).toBe(
      'clusterroles.rbac.authorization.k8s.io "admin" is forbidden: User "bob" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    );
  });
});

describe('RBAC objects', () => {
  it('a Role and RoleBinding open exactly what they grant, only in their namespace', async () => {
    await adminCreate(
      `${RBAC}/namespaces/team/roles`,
      role('cm-rw', [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'] }]),
    );
    await adminCreate(`${RBAC}/namespaces/team/rolebindings`, binding('carol-cm', 'Role', 'cm-rw', 'carol'));
    const created = await api.request('POST', '/api/v1/namespaces/team/configmaps', {
      as: carol,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } },
    });
    expect(created.status, created.text).toBe(201);
    expect((await api.request('GET', '/api/v1/namespaces/team/configmaps', { as: carol })).status).toBe(200);
    expect((await api.request('DELETE', '/api/v1/namespaces/team/configmaps/c1', { as: carol })).status).toBe(
      403,
    );
    expect((await api.request('GET', '/api/v1/namespaces/other/configmaps', { as: carol })).status).toBe(403);
    expect((await api.request('GET', '/api/v1/configmaps', { as: carol })).status).toBe(403);
  });

  it('a group subject and a ClusterRole bound by a RoleBinding apply in that namespace', async () => {
    await adminCreate(`${RBAC}/namespaces/other/rolebindings`, {
      ...binding('team-a-view', 'ClusterRole', 'view', 'x', 'other'),
      subjects: [{ kind: 'Group', name: 'team-a', apiGroup: G }],
    });
    expect((await api.request('GET', '/api/v1/namespaces/other/configmaps', { as: carol })).status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/other/secrets', { as: carol })).status).toBe(403);
  });

  it('resourceNames allow get, and list/watch only with the matching metadata.name field selector', async () => {
    await api.request('POST', '/api/v1/namespaces/team/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } },
    });
    await adminCreate(
      `${RBAC}/namespaces/team/roles`,
      role('one-only', [
        {
          verbs: ['get', 'list', 'watch'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['one'],
        },
      ]),
    );
    await adminCreate(
      `${RBAC}/namespaces/team/rolebindings`,
      binding('dave-one', 'Role', 'one-only', 'dave'),
    );
    const dave = { username: 'dave' };
    const cms = '/api/v1/namespaces/team/configmaps';
    expect((await api.request('GET', `${cms}/one`, { as: dave })).status).toBe(200);
    expect((await api.request('GET', `${cms}/c1`, { as: dave })).status).toBe(403);
    expect((await api.request('GET', cms, { as: dave })).status).toBe(403);
    const listed = await api.request('GET', `${cms}?fieldSelector=metadata.name%3Done`, { as: dave });
    expect(listed.status).toBe(200);
    expect(((listed.json as Obj).items as Obj[]).map((i) => i.metadata.name)).toEqual(['one']);
    expect((await api.request('GET', `${cms}?fieldSelector=metadata.name%3Dc1`, { as: dave })).status).toBe(
      403,
    );
    const watched = await api.request(
      'GET',
      `${cms}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Done`,
      {
        as: dave,
      },
    );
    expect(watched.status).toBe(200);
    expect((await api.request('GET', `${cms}?watch=1&timeoutSeconds=1`, { as: dave })).status).toBe(403);
  });

  it.each([
    [role('bad-url', [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]), 'rules[0].nonResourceURLs'],
    [role('no-verbs', [{ verbs: [], apiGroups: [''], resources: ['pods'] }]), 'rules[0].verbs'],
    [role('bad-name/x', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), 'metadata.name'],
  ])('an invalid Role is a 422 naming the field (%#)', async (body, field) => {
    const r = await api.request('POST', `${RBAC}/namespaces/team/roles`, { body });
    expect(r.status, r.text).toBe(422);
    expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain(field);
  });

  it('a binding with a bad roleRef or subject is 422; roleRef cannot change', async () => {
    const bad = binding('bad', 'Pod', 'x', 'u');
    const r = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, { body: bad });
    expect(r.status).toBe(422);
    expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain('roleRef.kind');
    const created = await adminCreate(
      `${RBAC}/namespaces/team/rolebindings`,
      binding('fixed', 'ClusterRole', 'view', 'u'),
    );
    const changed = await api.request('PUT', `${RBAC}/namespaces/team/rolebindings/fixed`, {
      body: { ...created, roleRef: { kind: 'ClusterRole', name: 'edit', apiGroup: G } },
    });
    expect(changed.status, changed.text).toBe(422);
    expect((changed.json as Obj).message).toContain('roleRef: Invalid value');
  });
});

describe('the escalation guard', () => {
  const erin = { username: 'erin' };
  beforeAll(async () => {
    await adminCreate(
      `${RBAC}/namespaces/team/roles`,
      role('role-writer', [
        { verbs: ['create', 'update'], apiGroups: [G], resources: ['roles', 'rolebindings'] },
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
      ]),
    );
    await adminCreate(
      `${RBAC}/namespaces/team/rolebindings`,
      binding('erin-writer', 'Role', 'role-writer', 'erin'),
    );
  });

  it("creating a role within the caller's own permissions works; a broader one is 403 listing what is missing", async () => {
    const ok = await api.request('POST', `${RBAC}/namespaces/team/roles`, {
      as: erin,
      body: role('narrow', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]),
    });
    expect(ok.status, ok.text).toBe(201);
    const broad = await api.request('POST', `${RBAC}/namespaces/team/roles`, {
      as: erin,
      body: role('broad', [
        { verbs: ['get', 'delete'], apiGroups: [''], resources: ['configmaps', 'secrets'] },
      ]),
    });
    expect(broad.status).toBe(403);
    expect((broad.json as Obj).message).toBe(
      'roles.rbac.authorization.k8s.io "broad" is forbidden: user "erin" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
  });

  it('binding a role whose permissions the caller lacks is 403; a missing role is 404', async () => {
    const r = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, {
      as: erin,
      body: binding('to-edit', 'ClusterRole', 'edit', 'erin'),
    });
    expect(r.status).toBe(403);
    expect((r.json as Obj).message).toContain('is attempting to grant RBAC permissions not currently held');
    const narrow = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, {
      as: erin,
      body: binding('to-narrow', 'Role', 'narrow', 'frank'),
    });
    expect(narrow.status, narrow.text).toBe(201);
    const missing = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, {
      as: erin,
      body: binding('to-missing', 'Role', 'nope', 'frank'),
    });
    expect(missing.status).toBe(404);
  });

  it('escalate on roles and bind on a named role lift the guard', async () => {
    await adminCreate(
      `${RBAC}/namespaces/team/roles`,
      role('lifts', [
        { verbs: ['escalate'], apiGroups: [G], resources: ['roles'] },
        { verbs: ['bind'], apiGroups: [G], resources: ['clusterroles'], resourceNames: ['edit'] },
      ]),
    );
    await adminCreate(`${RBAC}/namespaces/team/rolebindings`, binding('erin-lifts', 'Role', 'lifts', 'erin'));
    const broad = await api.request('POST', `${RBAC}/namespaces/team/roles`, {
      as: erin,
      body: role('broad', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    });
    expect(broad.status, broad.text).toBe(201);
    const edit = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, {
      as: erin,
      body: binding('to-edit', 'ClusterRole', 'edit', 'frank'),
    });
    expect(edit.status, edit.text).toBe(201);
    const admin = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, {
      as: erin,
      body: binding('to-admin', 'ClusterRole', 'admin', 'frank'),
    });
    expect(admin.status).toBe(403);
  });
});

describe('aggregation', () => {
  it('view picks up a ClusterRole labelled aggregate-to-view and loses it when the label goes', async () => {
    const extra = {
      apiVersion: `${G}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }],
    };
    const created = await adminCreate(`${RBAC}/clusterroles`, extra);
    const rulesOfView = async () =>
      (((await api.request('GET', `${RBAC}/clusterroles/view`)).json as Obj).rules as Obj[]).filter((r) =>
        r.apiGroups?.includes('example.com'),
      );
    expect(await rulesOfView()).toEqual(extra.rules);
    const unlabelled = await api.request('PUT', `${RBAC}/clusterroles/widgets-view`, {
      body: { ...created, metadata: { ...created.metadata, labels: {} } },
    });
    expect(unlabelled.status).toBe(200);
    await api.server.authorization.synced(Number((unlabelled.json as Obj).metadata.resourceVersion));
    expect(await rulesOfView()).toEqual([]);
  });

  it('manual rules on an aggregated role are overwritten', async () => {
    const view = (await api.request('GET', `${RBAC}/clusterroles/view`)).json as Obj;
    const r = await api.request('PUT', `${RBAC}/clusterroles/view`, {
      body: { ...view, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] },
    });
    expect(r.status).toBe(200);
    await api.server.authorization.synced(Number((r.json as Obj).metadata.resourceVersion));
    const after = (await api.request('GET', `${RBAC}/clusterroles/view`)).json as Obj;
    expect(after.rules).toEqual(view.rules);
  });
});

describe('review resources', () => {
  const sar = (spec: Obj) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });

  it('SubjectAccessReview answers for any user; allowed, reason, and no opinion', async () => {
    const yes = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
      body: sar({
        user: 'carol',
        groups: ['team-a'],
        resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: 'team' },
      }),
    });
    expect(yes.status).toBe(201);
    expect((yes.json as Obj).status).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "carol-cm/team" of Role "cm-rw" to User "carol"',
    });
    const no = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
      body: sar({
        user: 'carol',
        resourceAttributes: { verb: 'delete', resource: 'configmaps', namespace: 'team' },
      }),
    });
    expect((no.json as Obj).status).toEqual({ allowed: false });
  });

  it.each([
    [sar({ resourceAttributes: { verb: 'get' } }), 'spec.user'],
    [sar({ user: 'u' }), 'spec.resourceAttributes'],
    [sar({ user: 'u', resourceAttributes: {}, nonResourceAttributes: {} }), 'spec.nonResourceAttributes'],
    [sar({ user: 7, resourceAttributes: { verb: 'get' } }), 'spec.user'],
    [sar({ user: 'u', groups: 'g', resourceAttributes: { verb: 'get' } }), 'spec.groups'],
    [{ ...sar({ user: 'u', resourceAttributes: {} }), metadata: { name: 'x' } }, 'metadata'],
    [sar({ user: 'u', resourceAttributes: { verb: { __proto__: 1 } } }), 'spec.resourceAttributes.verb'],
  ])('a malformed SubjectAccessReview is 422 naming the field (%#)', async (body, field) => {
    const r = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, { body });
    expect(r.status, r.text).toBe(422);
    expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain(field);
  });

  it('LocalSubjectAccessReview must name its own namespace', async () => {
    const body = (ns: string) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      spec: { user: 'carol', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: ns } },
    });
    const ok = await api.request('POST', `${AUTHZ}/namespaces/team/localsubjectaccessreviews`, {
      body: body('team'),
    });
    expect(ok.status).toBe(201);
    expect((ok.json as Obj).status.allowed).toBe(true);
    const bad = await api.request('POST', `${AUTHZ}/namespaces/team/localsubjectaccessreviews`, {
      body: body('other'),
    });
    expect(bad.status).toBe(400);
    expect((bad.json as Obj).message).toBe('spec.resourceAttributes.namespace must match namespace: team');
  });

  it('a user without bindings may review itself but not others', async () => {
    const self = await api.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, {
      as: bob,
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' } },
      },
    });
    expect(self.status).toBe(201);
    expect((self.json as Obj).status).toEqual({ allowed: false });
    const other = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
      as: bob,
      body: sar({ user: 'carol', resourceAttributes: { verb: 'get' } }),
    });
    expect(other.status).toBe(403);
    const rules = await api.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, {
      as: carol,
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'team' },
      },
    });
    expect(rules.status).toBe(201);
    const status = (rules.json as Obj).status;
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules).toContainEqual({
      verbs: ['get', 'list', 'create'],
      apiGroups: [''],
      resources: ['configmaps'],
    });
    expect(status.nonResourceRules.some((r: Obj) => r.nonResourceURLs.includes('/version'))).toBe(true);
  });
});

describe('modes', () => {
  it('AlwaysAllow lets every user through; AlwaysDeny refuses all but system:masters', async () => {
    const open = await startTestServer({ flavor: 'kubernetes', authorization: 'AlwaysAllow' });
    const closed = await startTestServer({ flavor: 'kubernetes', authorization: 'AlwaysDeny' });
    try {
      expect((await open.request('GET', '/api/v1/namespaces', { as: bob })).status).toBe(200);
      const denied = await closed.request('GET', '/api/v1/namespaces', { as: bob });
      expect(denied.status).toBe(403);
      expect((denied.json as Obj).message).toBe(
        'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.',
      );
      expect((await closed.request('GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await open.stop();
      await closed.stop();
    }
  });

  it('ABAC from a policy file; a bad file stops the start naming the line and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'abac-'));
    try {
      const good = join(dir, 'good.jsonl');
      await writeFile(
        good,
        '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"*","resource":"namespaces","readonly":true}}\n',
      );
      const s = await startTestServer({
        flavor: 'kubernetes',
        authorization: ['ABAC', 'RBAC'],
        server: { authorizationPolicyFile: good },
      });
      try {
        expect((await s.request('GET', '/api/v1/namespaces', { as: bob })).status).toBe(200);
        expect((await s.request('DELETE', '/api/v1/namespaces/team', { as: bob })).status).toBe(403);
        expect((await s.request('GET', '/apis', { as: bob })).status).toBe(200);
      } finally {
        await s.stop();
      }
      const bad = join(dir, 'bad.jsonl');
      await writeFile(
        bad,
        '# comment\n{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","readonly":"yes"}}\n',
      );
      expect(() => createApiServer({ authorizationModes: ['ABAC'], authorizationPolicyFile: bad })).toThrow(
        `--authorization-policy-file: ${bad}:2: spec.readonly`,
      );
      expect(() =>
        createApiServer({ authorizationModes: ['ABAC'], authorizationPolicyFile: join(dir, 'none') }),
      ).toThrow(/cannot read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hostile RBAC input', () => {
  it.each([
    [
      `${RBAC}/namespaces/team/roles`,
      { ...role('p1', []), rules: [{ verbs: ['get'], __proto__: { apiGroups: ['*'] } }] },
    ],
    [`${RBAC}/namespaces/team/roles`, { ...role('p2', []), rules: 'everything' }],
    [
      `${RBAC}/namespaces/team/roles`,
      { ...role('p3', []), rules: [{ verbs: [{ constructor: 1 }], apiGroups: [''], resources: ['pods'] }] },
    ],
    [
      `${RBAC}/namespaces/team/rolebindings`,
      { ...binding('p4', 'Role', 'cm-rw', 'x'), subjects: [{ kind: 'User', name: { __proto__: 'x' } }] },
    ],
    [`${RBAC}/namespaces/team/rolebindings`, { ...binding('p5', 'Role', 'cm-rw', 'x'), roleRef: [] }],
    [
      `${RBAC}/clusterroles`,
      {
        apiVersion: `${G}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'p6' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { constructor: 5 } }] },
      },
    ],
  ])('is refused with 4xx and harms nothing (%#)', async (path, body) => {
    const r = await api.request('POST', path, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, r.text).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(({} as Obj).apiGroups).toBeUndefined();
    expect((await api.request('GET', `${RBAC}/clusterroles/view`)).status).toBe(200);
  });

  it('a review with hostile extra keys and a huge group list answers without harm', async () => {
    const groups = Array.from({ length: 5000 }, (_, i) => `g${i}`);
    const r = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
      body: JSON.stringify({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: 'carol',
          groups,
          extra: JSON.parse('{"__proto__":["x"],"constructor":["y"]}'),
          resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'team' },
        },
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json as Obj).status.allowed).toBe(true);
    expect(({} as Obj).x).toBeUndefined();
  });
});
