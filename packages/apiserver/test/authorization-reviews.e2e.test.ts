import { decodeProtobuf, encodeProtobuf } from '@orchard/codecs/protobuf';
import { flavorByName } from '@orchard/meta';
import { createAndAuthorize, type TestServer, type TestUser } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bob, carol, rbacFixtures, startRbacTestServer } from './helpers/rbac-fixtures.js';

/**
 * The review resources of `authorization.<domain>/v1` (issue 14 item 6) in JSON and Protobuf, the
 * impersonation check through RBAC and hostile RBAC input, under both flavors. Users are client
 * certificates minted from the test CA. The other modes and the unsafe-delete permission are in
 * authorization-modes.e2e.test.ts.
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)('authorization reviews (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const { G, RBAC, AG, AUTHZ, role, binding, clusterRole, clusterRoleBinding, sar } = rbacFixtures(flavor);
  let api: TestServer;
  const adminCreate = (path: string, body: Obj): Promise<Obj> => createAndAuthorize(api, path, body);

  beforeAll(async () => {
    api = await startRbacTestServer(flavorName);
    await adminCreate(
      `${RBAC}/namespaces/team/roles`,
      role('cm-rw', [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'] }]),
    );
    await adminCreate(`${RBAC}/namespaces/team/rolebindings`, binding('carol-cm', 'Role', 'cm-rw', 'carol'));
  });
  afterAll(async () => {
    await api.stop();
  });

  describe('review resources', () => {
    it('SubjectAccessReview answers for any user; allowed, reason, and no opinion', async () => {
      const yes = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: sar({
          user: 'carol',
          groups: ['team-a'],
          resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: 'team' },
        }),
      });
      expect(yes.status).toBe(201);
      expect(yes.json).toMatchObject({ apiVersion: `${AG}/v1`, kind: 'SubjectAccessReview' });
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
      const path = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: sar({
          user: 'carol',
          groups: ['system:authenticated'],
          nonResourceAttributes: { verb: 'get', path: '/version' },
        }),
      });
      expect((path.json as Obj).status).toMatchObject({ allowed: true });
      // The groups are taken as given: without system:authenticated nothing opens /apis.
      const bare = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: sar({ user: 'carol', nonResourceAttributes: { verb: 'get', path: '/apis' } }),
      });
      expect((bare.json as Obj).status).toEqual({ allowed: false });
    });

    it.each([
      [{ resourceAttributes: { verb: 'get' } }, 'spec.user'],
      [{ user: 'u' }, 'spec.resourceAttributes'],
      [{ user: 'u', resourceAttributes: {}, nonResourceAttributes: {} }, 'spec.nonResourceAttributes'],
      [{ user: 7, resourceAttributes: { verb: 'get' } }, 'spec.user'],
      [{ user: 'u', groups: 'g', resourceAttributes: { verb: 'get' } }, 'spec.groups'],
      [{ user: 'u', resourceAttributes: { verb: { __proto__: 1 } } }, 'spec.resourceAttributes.verb'],
    ])('a malformed SubjectAccessReview is 422 naming the field (%#)', async (spec, field) => {
      const r = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, { body: sar(spec) });
      expect(r.status, r.text).toBe(422);
      expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain(field);
    });

    it('a SubjectAccessReview with a name is 422 naming metadata', async () => {
      const r = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: { ...sar({ user: 'u', resourceAttributes: {} }), metadata: { name: 'x' } },
      });
      expect(r.status, r.text).toBe(422);
      expect(((r.json as Obj).details.causes as Obj[]).map((c) => c.field)).toContain('metadata');
    });

    it('LocalSubjectAccessReview must name its own namespace', async () => {
      const body = (ns: string) => ({
        apiVersion: `${AG}/v1`,
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
          apiVersion: `${AG}/v1`,
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
      expect((other.json as Obj).message).toBe(
        `subjectaccessreviews.${AG} is forbidden: User "bob" cannot create resource "subjectaccessreviews" in API group "${AG}" at the cluster scope`,
      );
      const local = await api.request('POST', `${AUTHZ}/namespaces/team/localsubjectaccessreviews`, {
        as: bob,
        body: {
          apiVersion: `${AG}/v1`,
          kind: 'LocalSubjectAccessReview',
          spec: { user: 'carol', resourceAttributes: { verb: 'get', namespace: 'team' } },
        },
      });
      expect(local.status).toBe(403);
    });

    it('SelfSubjectRulesReview lists the rules the caller holds in a namespace', async () => {
      const rules = await api.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, {
        as: carol,
        body: { apiVersion: `${AG}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } },
      });
      expect(rules.status).toBe(201);
      const status = (rules.json as Obj).status;
      expect(status.incomplete).toBe(false);
      expect(status.resourceRules).toContainEqual({
        verbs: ['get', 'list', 'create'],
        apiGroups: [''],
        resources: ['configmaps'],
      });
      expect(status.resourceRules).toContainEqual({
        verbs: ['create'],
        apiGroups: [AG],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      });
      expect(status.nonResourceRules.some((r: Obj) => r.nonResourceURLs.includes('/version'))).toBe(true);
      const elsewhere = await api.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, {
        as: carol,
        body: { apiVersion: `${AG}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace: 'other' } },
      });
      expect(
        ((elsewhere.json as Obj).status.resourceRules as Obj[]).some((r) =>
          r.resources.includes('configmaps'),
        ),
      ).toBe(false);
    });

    it('SelfSubjectRulesReview is incomplete when an authorizer cannot list (a node under Node,RBAC)', async () => {
      const r = await api.request('POST', `${AUTHZ}/selfsubjectrulesreviews`, {
        as: { username: 'system:node:n1', groups: ['system:nodes'] },
        body: { apiVersion: `${AG}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } },
      });
      expect(r.status, r.text).toBe(201);
      const status = (r.json as Obj).status;
      expect(status.incomplete).toBe(true);
      expect(status.evaluationError).toContain('node authorizer does not support user rule resolution');
      // What RBAC grants the node's groups is still listed (system:basic-user for authenticated users).
      expect(status.resourceRules).toContainEqual({
        verbs: ['create'],
        apiGroups: [AG],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      });
    });

    it(`SelfSubjectAccessReview and SelfSubjectRulesReview in Protobuf (${flavor.protobufMediaType})`, async () => {
      const pb = flavor.protobufMediaType;
      const send = (resource: string, obj: Obj) =>
        api.request('POST', `${AUTHZ}/${resource}`, {
          as: carol,
          body: encodeProtobuf(obj as never, flavor),
          headers: { 'content-type': pb, accept: pb },
        });
      const access = await send('selfsubjectaccessreviews', {
        apiVersion: `${AG}/v1`,
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'team' } },
      });
      expect(access.status).toBe(201);
      expect(access.headers['content-type']).toBe(pb);
      expect(decodeProtobuf(access.bytes, flavor)).toMatchObject({
        kind: 'SelfSubjectAccessReview',
        status: { allowed: true },
      });
      const rules = await send('selfsubjectrulesreviews', {
        apiVersion: `${AG}/v1`,
        kind: 'SelfSubjectRulesReview',
        spec: { namespace: 'team' },
      });
      expect(rules.status).toBe(201);
      const decoded = decodeProtobuf(rules.bytes, flavor) as Obj;
      expect(decoded.status.resourceRules).toContainEqual({
        verbs: ['get', 'list', 'create'],
        apiGroups: [''],
        resources: ['configmaps'],
      });
    });
  });

  describe('impersonation through RBAC', () => {
    const auth = flavor.group('authentication');
    beforeAll(async () => {
      await adminCreate(
        `${RBAC}/clusterroles`,
        clusterRole('impersonate-alice', [
          { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['alice'] },
          { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['dev'] },
          { verbs: ['impersonate'], apiGroups: [auth], resources: ['uids'], resourceNames: ['u-1'] },
          {
            verbs: ['impersonate'],
            apiGroups: [auth],
            resources: ['userextras/scopes'],
            resourceNames: ['view'],
          },
        ]),
      );
      await adminCreate(
        `${RBAC}/clusterrolebindings`,
        clusterRoleBinding('imp-alice', 'impersonate-alice', { kind: 'User', name: 'imp', apiGroup: G }),
      );
      await adminCreate(
        `${RBAC}/namespaces/team/rolebindings`,
        binding('alice-view', 'ClusterRole', 'view', 'alice'),
      );
    });
    const imp: TestUser = { username: 'imp' };
    const whoami = (headers: Record<string, string>) =>
      api.request('POST', `/apis/${auth}/v1/selfsubjectreviews`, {
        as: imp,
        headers,
        body: { apiVersion: `${auth}/v1`, kind: 'SelfSubjectReview' },
      });

    it('a user allowed to impersonate named users, groups, uids and extras becomes them', async () => {
      const r = await whoami({
        'impersonate-user': 'alice',
        'impersonate-group': 'dev',
        'impersonate-uid': 'u-1',
        'impersonate-extra-scopes': 'view',
      });
      expect(r.status, r.text).toBe(201);
      expect((r.json as Obj).status.userInfo).toEqual({
        username: 'alice',
        uid: 'u-1',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['view'] },
      });
      const asAlice = await api.request('GET', '/api/v1/namespaces/team/configmaps', {
        as: imp,
        headers: { 'impersonate-user': 'alice' },
      });
      expect(asAlice.status, asAlice.text).toBe(200);
      const notImp = await api.request('GET', '/api/v1/namespaces/team/configmaps', { as: imp });
      expect(notImp.status).toBe(403);
    });

    it.each([
      [
        { 'impersonate-user': 'mallory' },
        'users "mallory" is forbidden: User "imp" cannot impersonate resource "users" in API group "" at the cluster scope',
      ],
      [
        { 'impersonate-user': 'alice', 'impersonate-group': 'system:masters' },
        'groups "system:masters" is forbidden',
      ],
      [{ 'impersonate-user': 'alice', 'impersonate-uid': 'u-2' }, `uids.${auth} "u-2" is forbidden`],
      [
        { 'impersonate-user': 'alice', 'impersonate-extra-scopes': 'admin' },
        `userextras.${auth} "admin" is forbidden: User "imp" cannot impersonate resource "userextras/scopes" in API group "${auth}"`,
      ],
    ])('outside the granted names is 403 (%j)', async (headers, message) => {
      const r = await whoami(headers);
      expect(r.status).toBe(403);
      expect((r.json as Obj).message).toContain(message);
    });
  });

  describe('hostile RBAC input', () => {
    it.each([
      ['roles', { rules: [{ verbs: ['get'], __proto__: { apiGroups: ['*'] } }] }],
      ['roles', { rules: 'everything' }],
      ['roles', { rules: [{ verbs: [{ constructor: 1 }], apiGroups: [''], resources: ['pods'] }] }],
      ['rolebindings', { subjects: [{ kind: 'User', name: { __proto__: 'x' } }] }],
      ['rolebindings', { roleRef: [] }],
    ])('a hostile %s body is refused with 4xx and harms nothing (%#)', async (resource, patch) => {
      const base = resource === 'roles' ? role('p', []) : binding('p', 'Role', 'cm-rw', 'x');
      const r = await api.request('POST', `${RBAC}/namespaces/team/${resource}`, {
        body: JSON.stringify({ ...base, ...patch }),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, r.text).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(({} as Obj).apiGroups).toBeUndefined();
      expect((await api.request('GET', `${RBAC}/clusterroles/view`)).status).toBe(200);
    });

    it('a ClusterRole with a hostile aggregation selector is refused with 4xx', async () => {
      const r = await api.request('POST', `${RBAC}/clusterroles`, {
        body: JSON.stringify({
          apiVersion: `${G}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'p6' },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { constructor: 5 } }] },
        }),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, r.text).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    });

    it('a review with hostile extra keys and a huge group list answers without harm', async () => {
      const groups = Array.from({ length: 5000 }, (_, i) => `g${i}`);
      const r = await api.request('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: JSON.stringify(
          sar({
            user: 'carol',
            groups,
            extra: JSON.parse('{"__proto__":["x"],"constructor":["y"]}'),
            resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'team' },
          }),
        ),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, r.text).toBe(201);
      expect((r.json as Obj).status.allowed).toBe(true);
      expect(({} as Obj).x).toBeUndefined();
    });
  });
});
