import { identityDomain } from '@orchard/apiserver';
import { verifyClusterInfo } from '@orchard/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, flavors, startAuthServer, unauthorizedStatus } from './helpers/auth-server.js';

/**
 * Bootstrap tokens in the server (doc 2 §2.4, §5.2): authentication from Secrets in the system
 * namespace, the token cleaner and the cluster-info signer, checked with `verifyClusterInfo`. Under
 * both flavors: Secrets of type `bootstrap.<identity domain>/token` in the flavor's system namespace,
 * `cluster-info` in its public namespace.
 */
async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const future = () => new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const past = () => new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');

function tokenSecret(id: string, secret: string, extra: Record<string, string>, type: string) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}` },
    type,
    stringData: {
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      expiration: future(),
      ...extra,
    },
  };
}

describe.each(flavors)('bootstrap tokens ($name flavor)', (flavor) => {
  const system = flavor.systemNamespace;
  const publicNs = flavor.publicNamespace;
  const secretType = `bootstrap.${identityDomain(flavor)}/token`;
  const otherFlavorType = `bootstrap.${identityDomain(flavors.find((f) => f !== flavor)!)}/token`;
  const secretOf = (id: string, secret: string, extra: Record<string, string> = {}, type = secretType) =>
    tokenSecret(id, secret, extra, type);
  let api: AuthServer;
  const admin = () => ({ cert: api.tls.admin });
  const put = (body: unknown) =>
    api.call('POST', `/api/v1/namespaces/${system}/secrets`, { ...admin(), body });
  const secretGone = async (name: string) =>
    (await api.call('GET', `/api/v1/namespaces/${system}/secrets/${name}`, admin())).status === 404
      ? true
      : undefined;
  const clusterInfo = async () =>
    (await api.call('GET', `/api/v1/namespaces/${publicNs}/configmaps/cluster-info`, admin())).json;

  beforeAll(async () => {
    api = await startAuthServer({ flavor, authentication: { bootstrapTokens: true } });
    expect(api.server.authentication?.methods).toContain('bootstrap-token');
    expect(
      (
        await put(
          secretOf('abcdef', '0123456789abcdef', {
            'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
          }),
        )
      ).status,
    ).toBe(201);
  });
  afterAll(() => api.stop());
  const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });

  it('a valid token is system:bootstrap:<id> in system:bootstrappers plus its extra groups', async () => {
    const r = await api.whoami(bearer('abcdef.0123456789abcdef'));
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({
      username: 'system:bootstrap:abcdef',
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:kubeadm:default-node-token',
        'system:authenticated',
      ],
    });
  });

  it.each([
    ['wrong secret', 'abcdef.ffffffffffffffff', undefined],
    ['unknown id', 'zzzzzz.0123456789abcdef', undefined],
    ['not in the format (upper case)', 'ABCDEF.0123456789ABCDEF', undefined],
    ['expired', 'exp001.0123456789abcdef', secretOf('exp001', '0123456789abcdef', { expiration: past() })],
    [
      'not marked for authentication',
      'noauth.0123456789abcdef',
      secretOf('noauth', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }),
    ],
    [
      'extra group without the required prefix',
      'badgrp.0123456789abcdef',
      secretOf('badgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:masters' }),
    ],
    ['wrong Secret type', 'wrtype.0123456789abcdef', secretOf('wrtype', '0123456789abcdef', {}, 'Opaque')],
    [
      'the other flavor’s Secret type',
      'othtyp.0123456789abcdef',
      secretOf('othtyp', '0123456789abcdef', {}, otherFlavorType),
    ],
    [
      'malformed expiration',
      'badexp.0123456789abcdef',
      secretOf('badexp', '0123456789abcdef', { expiration: 'tomorrow' }),
    ],
  ])('%s → 401', async (_name, token, secret) => {
    if (secret) expect((await put(secret)).status).toBe(201);
    const r = await api.whoami(bearer(token));
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('a token whose Secret is deleted (revoked) stops working at once', async () => {
    expect((await put(secretOf('revokd', '0123456789abcdef'))).status).toBe(201);
    expect((await api.whoami(bearer('revokd.0123456789abcdef'))).status).toBe(201);
    await api.call('DELETE', `/api/v1/namespaces/${system}/secrets/bootstrap-token-revokd`, admin());
    const r = await api.whoami(bearer('revokd.0123456789abcdef'));
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('the token cleaner deletes expired bootstrap Secrets, and only those', async () => {
    await put(secretOf('old001', '0123456789abcdef', { expiration: past() }));
    await put({ ...secretOf('old002', '0123456789abcdef', { expiration: past() }), type: 'Opaque' });
    await until(() => secretGone('bootstrap-token-old001'), 'the expired token to be deleted');
    expect(
      (await api.call('GET', `/api/v1/namespaces/${system}/secrets/bootstrap-token-old002`, admin())).status,
    ).toBe(200);
    expect(
      (await api.call('GET', `/api/v1/namespaces/${system}/secrets/bootstrap-token-abcdef`, admin())).status,
    ).toBe(200);
  });

  it('the token cleaner deletes a token when it expires later', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    await put(secretOf('soon01', '0123456789abcdef', { expiration: soon }));
    expect((await api.whoami(bearer('soon01.0123456789abcdef'))).status).toBe(201);
    await until(() => secretGone('bootstrap-token-soon01'), 'the token to be deleted after it expired');
  });

  it('the signer keeps jws-kubeconfig-<id> on cluster-info, and verifyClusterInfo accepts it', async () => {
    const kubeconfig =
      'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:6443\n  name: ""\n';
    expect(
      (
        await api.call('POST', `/api/v1/namespaces/${publicNs}/configmaps`, {
          ...admin(),
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cluster-info' },
            data: { kubeconfig },
          },
        })
      ).status,
    ).toBe(201);
    const cm = await until(async () => {
      const c = await clusterInfo();
      return c?.data?.['jws-kubeconfig-abcdef'] ? c : undefined;
    }, 'the signature');
    await expect(verifyClusterInfo(cm, 'abcdef.0123456789abcdef')).resolves.toBe(kubeconfig);
    await expect(verifyClusterInfo(cm, 'abcdef.ffffffffffffffff')).rejects.toThrow('does not match');
    // Signing-enabled tokens are signed whatever their authentication flags (noauth, badgrp); expired
    // ones, a malformed expiration and another Secret type are not.
    expect(
      Object.keys(cm.data)
        .filter((k) => k.startsWith('jws-'))
        .sort(),
    ).toEqual(['jws-kubeconfig-abcdef', 'jws-kubeconfig-badgrp', 'jws-kubeconfig-noauth']);

    await put(secretOf('second', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }));
    await put(secretOf('nosign', '0123456789abcdef', { 'usage-bootstrap-signing': 'false' }));
    const both = await until(async () => {
      const c = await clusterInfo();
      return c?.data?.['jws-kubeconfig-second'] ? c : undefined;
    }, 'the second signature');
    expect(both.data['jws-kubeconfig-nosign']).toBeUndefined();
    await expect(verifyClusterInfo(both, 'second.0123456789abcdef')).resolves.toBe(kubeconfig);

    // A changed kubeconfig is signed again; a deleted token's signature goes.
    const changed = `${kubeconfig}# changed\n`;
    await api.call('PATCH', `/api/v1/namespaces/${publicNs}/configmaps/cluster-info`, {
      ...admin(),
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { data: { kubeconfig: changed } },
    });
    await api.call('DELETE', `/api/v1/namespaces/${system}/secrets/bootstrap-token-second`, admin());
    const after = await until(async () => {
      const c = await clusterInfo();
      return c?.data?.['jws-kubeconfig-second'] === undefined && c?.data?.kubeconfig === changed
        ? c
        : undefined;
    }, 'the re-signed cluster-info');
    await until(
      async () =>
        (await verifyClusterInfo(await clusterInfo(), 'abcdef.0123456789abcdef').catch(() => undefined)) ===
        changed
          ? true
          : undefined,
      'the new signature',
    );
    expect(after.data.kubeconfig).toBe(changed);
  });
});
