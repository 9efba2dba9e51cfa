import { flavorByName } from '@orchard/meta';
import { createAndAuthorize, type TestServer, type TestUser } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bob, carol, rbacFixtures, startRbacTestServer } from './helpers/rbac-fixtures.js';

/**
 * Authorization served and enforced (issue 14) under both flavors: RBAC objects in
 * `rbac.authorization.<domain>/v1`, enforcement for users other than `system:masters` and the
 * escalation guard. Users are client certificates minted from the test CA (CN = user, O = groups).
 * The default policy and aggregation are in authorization-default-policy.e2e.test.ts, the review
 * resources and hostile input in authorization-reviews.e2e.test.ts, the other modes in
 * authorization-modes.e2e.test.ts.
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)('authorization (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const { G, RBAC, role, binding, clusterRole } = rbacFixtures(flavor);
  let api: TestServer;
  const adminCreate = (path: string, body: Obj): Promise<Obj> => createAndAuthorize(api, path, body);

  beforeAll(async () => {
    api = await startRbacTestServer(flavorName);
  });
  afterAll(async () => {
    await api.stop();
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
        `clusterroles.${G} "admin" is forbidden: User "bob" cannot get resource "clusterroles" in API group "${G}" at the cluster scope`,
      );
    });

    it('group system:monitoring reads /metrics and the health paths by default, nothing else', async () => {
      const prom: TestUser = { username: 'prom', groups: ['system:monitoring'] };
      for (const p of ['/metrics', '/healthz', '/livez', '/readyz', '/readyz/ping', '/livez/ping']) {
        const r = await api.request('GET', p, { as: prom });
        expect(r.status, `${p}: ${r.text.slice(0, 200)}`).toBe(200);
      }
      expect((await api.request('GET', '/metrics', { as: prom })).text).toContain('apiserver_request_total');
      expect((await api.request('GET', '/api/v1/namespaces', { as: prom })).status).toBe(403);
      expect((await api.request('GET', '/metrics', { anonymous: true })).status).toBe(403);
    });
  });

  describe('RBAC objects', () => {
    it('a Role and RoleBinding open exactly what they grant, only in their namespace', async () => {
      await adminCreate(
        `${RBAC}/namespaces/team/roles`,
        role('cm-rw', [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'] }]),
      );
      await adminCreate(
        `${RBAC}/namespaces/team/rolebindings`,
        binding('carol-cm', 'Role', 'cm-rw', 'carol'),
      );
      const created = await api.request('POST', '/api/v1/namespaces/team/configmaps', {
        as: carol,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } },
      });
      expect(created.status, created.text).toBe(201);
      expect((await api.request('GET', '/api/v1/namespaces/team/configmaps', { as: carol })).status).toBe(
        200,
      );
      expect(
        (await api.request('DELETE', '/api/v1/namespaces/team/configmaps/c1', { as: carol })).status,
      ).toBe(403);
      expect((await api.request('GET', '/api/v1/namespaces/other/configmaps', { as: carol })).status).toBe(
        403,
      );
      expect((await api.request('GET', '/api/v1/configmaps', { as: carol })).status).toBe(403);
    });

    it('a group subject and a ClusterRole bound by a RoleBinding apply in that namespace', async () => {
      await adminCreate(`${RBAC}/namespaces/other/rolebindings`, {
        ...binding('team-a-view', 'ClusterRole', 'view', 'x', 'other'),
        subjects: [{ kind: 'Group', name: 'team-a', apiGroup: G }],
      });
      expect((await api.request('GET', '/api/v1/namespaces/other/configmaps', { as: carol })).status).toBe(
        200,
      );
      expect((await api.request('GET', '/api/v1/namespaces/other/secrets', { as: carol })).status).toBe(403);
    });

    it('a ClusterRole with a nonResourceURL wildcard opens those paths', async () => {
      await adminCreate(
        `${RBAC}/clusterroles`,
        clusterRole('debug-reader', [{ verbs: ['get'], nonResourceURLs: ['/debug/*'] }]),
      );
      await adminCreate(`${RBAC}/clusterrolebindings`, {
        apiVersion: `${G}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'gina-debug' },
        subjects: [{ kind: 'User', name: 'gina', apiGroup: G }],
        roleRef: { kind: 'ClusterRole', name: 'debug-reader', apiGroup: G },
      });
      const gina = { username: 'gina' };
      expect((await api.request('GET', '/debug/pprof/', { as: gina })).status).not.toBe(403);
      expect((await api.request('GET', '/metrics', { as: gina })).status).toBe(403);
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
        { as: dave },
      );
      expect(watched.status).toBe(200);
      expect((await api.request('GET', `${cms}?watch=1&timeoutSeconds=1`, { as: dave })).status).toBe(403);
    });

    it.each([
      ['bad-url', [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }], 'rules[0].nonResourceURLs'],
      ['no-verbs', [{ verbs: [], apiGroups: [''], resources: ['pods'] }], 'rules[0].verbs'],
      ['bad-name/x', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'metadata.name'],
      ['no-groups', [{ verbs: ['get'], resources: ['pods'] }], 'rules[0].apiGroups'],
      [
        'mixed',
        [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'] }],
        'rules[0].nonResourceURLs',
      ],
    ])('an invalid Role (%s) is a 422 naming the field', async (name, rules, field) => {
      const r = await api.request('POST', `${RBAC}/namespaces/team/roles`, { body: role(name, rules) });
      expect(r.status, r.text).toBe(422);
      expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain(field);
    });

    it.each([
      ['verb-string', { verbs: 'get', apiGroups: [''], resources: ['pods'] }, 'rules[0].verbs'],
      ['verb-number', { verbs: [7], apiGroups: [''], resources: ['pods'] }, 'rules[0].verbs[0]'],
    ])(
      'a Role whose verbs have the wrong JSON type (%s) is a 400 naming the field, as upstream decodes',
      async (name, rule, field) => {
        const r = await api.request('POST', `${RBAC}/namespaces/team/roles`, { body: role(name, [rule]) });
        expect(r.status, r.text).toBe(400);
        expect((r.json as Obj).message).toContain(`cannot be handled as a Role: json: cannot unmarshal`);
        expect((r.json as Obj).message).toContain(`Role.${field} of type`);
      },
    );

    it('a binding with a bad roleRef or subject is 422; roleRef cannot change', async () => {
      const bad = binding('bad', 'Pod', 'x', 'u');
      const r = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, { body: bad });
      expect(r.status).toBe(422);
      expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain('roleRef.kind');
      // The subject and roleRef apiGroup must be this flavor's RBAC group.
      const otherGroup = flavorName === 'orch' ? 'rbac.authorization.k8s.io' : 'rbac.authorization.orch.io';
      const foreign = binding('foreign', 'ClusterRole', 'view', 'u');
      foreign.subjects[0].apiGroup = otherGroup;
      foreign.roleRef.apiGroup = otherGroup;
      const f = await api.request('POST', `${RBAC}/namespaces/team/rolebindings`, { body: foreign });
      expect(f.status, f.text).toBe(422);
      expect(((f.json as Obj).details.causes as Obj[]).map((c) => c.field).sort()).toEqual([
        'roleRef.apiGroup',
        'subjects[0].apiGroup',
      ]);
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
        `roles.${G} "broad" is forbidden: user "erin" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n' +
          '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
      );
      // Updating a role the caller holds into a broader one is refused the same way.
      const narrow = ok.json as Obj;
      const widened = await api.request('PUT', `${RBAC}/namespaces/team/roles/narrow`, {
        as: erin,
        body: { ...narrow, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }] },
      });
      expect(widened.status).toBe(403);
      expect((widened.json as Obj).message).toContain(
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["list"]}',
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
      await adminCreate(
        `${RBAC}/namespaces/team/rolebindings`,
        binding('erin-lifts', 'Role', 'lifts', 'erin'),
      );
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

    it('the guard holds at cluster scope: a namespaced grant does not allow a ClusterRole', async () => {
      await adminCreate(
        `${RBAC}/clusterroles`,
        clusterRole('clusterrole-writer', [
          { verbs: ['create'], apiGroups: [G], resources: ['clusterroles'] },
        ]),
      );
      await adminCreate(`${RBAC}/clusterrolebindings`, {
        apiVersion: `${G}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'erin-cr-writer' },
        subjects: [{ kind: 'User', name: 'erin', apiGroup: G }],
        roleRef: { kind: 'ClusterRole', name: 'clusterrole-writer', apiGroup: G },
      });
      // erin may get configmaps in `team` only: a ClusterRole granting it everywhere is broader.
      const r = await api.request('POST', `${RBAC}/clusterroles`, {
        as: erin,
        body: clusterRole('cm-everywhere', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]),
      });
      expect(r.status).toBe(403);
      expect((r.json as Obj).message).toContain(`clusterroles.${G} "cm-everywhere" is forbidden`);
      const own = await api.request('POST', `${RBAC}/clusterroles`, {
        as: erin,
        body: clusterRole('cr-writer-copy', [
          { verbs: ['create'], apiGroups: [G], resources: ['clusterroles'] },
        ]),
      });
      expect(own.status, own.text).toBe(201);
    });
  });
});
