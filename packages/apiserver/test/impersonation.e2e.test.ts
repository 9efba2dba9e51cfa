import { parseTokenFile } from '@orchard/authn';
import type { AuthorizationAttributes, Authorizer } from '@orchard/authz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, flavors, startAuthServer } from './helpers/auth-server.js';

/** Impersonation headers (doc 2 §4.4) against the real HTTPS server, under both flavors. */
const tokens = parseTokenFile(
  ['tok-jane,jane,uid-jane,dev', 'tok-root,root,,system:masters', 'tok-imp,impersonator,,'].join('\n'),
  't.csv',
);

describe.each(flavors)(
  'impersonation while no authorizer is configured: system:masters only ($name flavor)',
  (flavor) => {
    let api: AuthServer;
    beforeAll(async () => {
      // AlwaysAllow: the masters-only impersonation check applies (no authorizer to ask).
      api = await startAuthServer({
        flavor,
        authentication: { tokenFile: tokens },
        server: { authorizationModes: ['AlwaysAllow'] },
      });
    });
    afterAll(() => api.stop());
    const asRoot = { authorization: 'Bearer tok-root' };

    it('a system:masters caller becomes the impersonated user, groups, uid and extras', async () => {
      const r = await api.whoami({
        headers: {
          ...asRoot,
          'impersonate-user': 'bob',
          'impersonate-group': ['g1', 'g2'],
          'impersonate-uid': 'uid-bob',
          'impersonate-extra-acme.com%2Fproject': ['p1', 'p2'],
          'impersonate-extra-scopes': 'view',
        },
      });
      expect(r.status).toBe(201);
      expect(r.json.status.userInfo).toEqual({
        username: 'bob',
        uid: 'uid-bob',
        groups: ['g1', 'g2', 'system:authenticated'],
        extra: { 'acme.com/project': ['p1', 'p2'], scopes: ['view'] },
      });
    });

    it('the admin certificate may impersonate too', async () => {
      const r = await api.whoami({ cert: api.tls.admin, headers: { 'impersonate-user': 'carol' } });
      expect(r.json.status.userInfo).toEqual({ username: 'carol', groups: ['system:authenticated'] });
    });

    it('a service account gets its groups unless groups are given', async () => {
      const r = await api.whoami({
        headers: { ...asRoot, 'impersonate-user': 'system:serviceaccount:ns1:robot' },
      });
      expect(r.json.status.userInfo).toEqual({
        username: 'system:serviceaccount:ns1:robot',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
      });
      const g = await api.whoami({
        headers: {
          ...asRoot,
          'impersonate-user': 'system:serviceaccount:ns1:robot',
          'impersonate-group': 'x',
        },
      });
      expect(g.json.status.userInfo.groups).toEqual(['x', 'system:authenticated']);
    });

    it('system:anonymous gets system:unauthenticated', async () => {
      const r = await api.whoami({ headers: { ...asRoot, 'impersonate-user': 'system:anonymous' } });
      expect(r.json.status.userInfo).toEqual({
        username: 'system:anonymous',
        groups: ['system:unauthenticated'],
      });
    });

    it('anyone outside system:masters is 403, naming what was refused', async () => {
      const r = await api.whoami({
        headers: { authorization: 'Bearer tok-jane', 'impersonate-user': 'root' },
      });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({
        kind: 'Status',
        reason: 'Forbidden',
        message:
          'users "root" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope',
      });
    });

    it.each([
      [{ 'impersonate-group': 'system:masters' }],
      [{ 'impersonate-uid': 'u' }],
      [{ 'impersonate-extra-scopes': 'x' }],
      [{ 'impersonate-user': '', 'impersonate-group': 'g' }],
    ])('%j without Impersonate-User is 400', async (headers) => {
      const r = await api.whoami({ headers: { ...asRoot, ...headers } });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    });

    it('hostile impersonation headers never crash the server nor pollute prototypes', async () => {
      const cases: Record<string, string | string[]>[] = [
        { 'impersonate-user': 'x', 'impersonate-extra-__proto__': 'polluted' },
        { 'impersonate-user': 'x', 'impersonate-extra-constructor': ['a', 'b'] },
        { 'impersonate-user': 'x', 'impersonate-extra-%E0%A4%A': 'bad-escape' },
        { 'impersonate-user': 'x', 'impersonate-group': Array.from({ length: 200 }, (_, i) => `g${i}`) },
        { 'impersonate-user': 'y'.repeat(6000) },
        { 'impersonate-user': 'x', 'impersonate-extra-': 'empty-key' },
      ];
      for (const headers of cases) {
        const r = await api.whoami({ headers: { ...asRoot, ...headers } });
        expect(r.status, JSON.stringify(headers).slice(0, 60)).toBe(201);
      }
      const proto = await api.whoami({
        headers: { ...asRoot, 'impersonate-user': 'x', 'impersonate-extra-__proto__': 'polluted' },
      });
      expect(Object.hasOwn(proto.json.status.userInfo.extra, '__proto__')).toBe(true);
      const bad = await api.whoami({
        headers: { ...asRoot, 'impersonate-user': 'x', 'impersonate-extra-%E0%A4%A': 'v' },
      });
      expect(bad.json.status.userInfo.extra).toEqual({ '%e0%a4%a': ['v'] });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  },
);

describe.each(flavors)('impersonation through the server authorizer ($name flavor)', (flavor) => {
  let api: AuthServer;
  const asked: AuthorizationAttributes[] = [];
  // Allows `impersonator` to act as alice with group dev, uid u-1 and scope view, as a role with
  // resourceNames would; everything else that is not impersonation is allowed.
  const authorizer: Authorizer = {
    authorize(a) {
      if (a.verb !== 'impersonate') return { decision: 'allow', reason: '' };
      asked.push(a);
      const ok =
        a.user.username === 'impersonator' &&
        ((a.resource === 'users' && a.name === 'alice') ||
          (a.resource === 'groups' && a.name === 'dev') ||
          (a.resource === 'uids' && a.name === 'u-1') ||
          (a.resource === 'serviceaccounts' && a.namespace === 'ns1' && a.name === 'robot') ||
          (a.resource === 'userextras' && a.subresource === 'scopes' && a.name === 'view'));
      return ok ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' };
    },
  };
  beforeAll(async () => {
    api = await startAuthServer({ flavor, authentication: { tokenFile: tokens }, server: { authorizer } });
  });
  afterAll(() => api.stop());
  const asImp = { authorization: 'Bearer tok-imp' };

  it('checks users, groups, userextras/<key> and uids with the values as resource names', async () => {
    asked.length = 0;
    const r = await api.whoami({
      headers: {
        ...asImp,
        'impersonate-user': 'alice',
        'impersonate-group': 'dev',
        'impersonate-uid': 'u-1',
        'impersonate-extra-scopes': 'view',
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo.username).toBe('alice');
    expect(
      asked.map((a) => [a.apiGroup, a.resource, a.subresource, a.namespace, a.name, a.user.username]),
    ).toEqual([
      ['', 'users', '', '', 'alice', 'impersonator'],
      ['', 'groups', '', '', 'dev', 'impersonator'],
      [flavor.group('authentication'), 'userextras', 'scopes', '', 'view', 'impersonator'],
      [flavor.group('authentication'), 'uids', '', '', 'u-1', 'impersonator'],
    ]);
  });

  it('a service account is checked as serviceaccounts in its namespace', async () => {
    const r = await api.whoami({
      headers: { ...asImp, 'impersonate-user': 'system:serviceaccount:ns1:robot' },
    });
    expect(r.status).toBe(201);
    expect(
      (await api.whoami({ headers: { ...asImp, 'impersonate-user': 'system:serviceaccount:ns2:robot' } }))
        .status,
    ).toBe(403);
  });

  const authn = flavor.group('authentication');
  it.each([
    [{ 'impersonate-user': 'mallory' }, 'users "mallory" is forbidden'],
    [
      { 'impersonate-user': 'alice', 'impersonate-group': 'system:masters' },
      'groups "system:masters" is forbidden',
    ],
    [{ 'impersonate-user': 'alice', 'impersonate-uid': 'u-2' }, `uids.${authn} "u-2" is forbidden`],
    [
      { 'impersonate-user': 'alice', 'impersonate-extra-scopes': 'admin' },
      `userextras.${authn} "admin" is forbidden: User "impersonator" cannot impersonate resource "userextras/scopes" in API group "${authn}"`,
    ],
  ])('a value outside the allowed names is 403: %j', async (headers, message) => {
    const r = await api.whoami({ headers: { ...asImp, ...headers } });
    expect(r.status).toBe(403);
    expect(r.json.message).toContain(message);
  });

  it('the impersonated user is who the authorizer sees for the request itself', async () => {
    const seen: string[] = [];
    const api2 = await startAuthServer({
      flavor,
      authentication: { tokenFile: tokens },
      server: {
        authorizer: {
          authorize(a) {
            if (a.verb === 'impersonate') return { decision: 'allow', reason: '' };
            seen.push(`${a.user.username} ${a.verb} ${a.resource}`);
            return { decision: 'allow', reason: '' };
          },
        },
      },
    });
    try {
      await api2.call('GET', '/api/v1/namespaces', { headers: { ...asImp, 'impersonate-user': 'alice' } });
      expect(seen).toEqual(['alice list namespaces']);
    } finally {
      await api2.stop();
    }
  });
});
