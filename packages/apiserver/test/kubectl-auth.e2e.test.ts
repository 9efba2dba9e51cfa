import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchWithCa } from '@orchard/apiserver';
import { generateCa, issueClientCert } from '@orchard/apiserver/tls';
import { parseTokenFile } from '@orchard/authn';
import { kubectl, kubectlAvailable, newServiceAccountSigningKey } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, sharedTls, startAuthServer } from './helpers/auth-server.js';
import { type HttpsStub, startHttpsStub } from './helpers/https-stub.js';
import { publicJwk as jwk, signJwt as jwt, startOidcIssuer, writeKubeconfig } from './helpers/oidc-issuer.js';

/**
 * `kubectl auth whoami` (stock kubectl 1.32, `--flavor kubernetes`, which sends the review in
 * Protobuf) for every authentication method of the server: the admin certificate, a static token, a
 * bootstrap token, a token from `kubectl create token`, an OIDC token from a local HTTPS issuer
 * (discovery + JWKS, a key rotation mid-test), the authenticating proxy (a small local proxy in the
 * test), and `--as`/`--as-group`.
 */
const dir = mkdtempSync(join(tmpdir(), 'orchard-kubectl-auth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const kubeconfigWith = (server: string, ca: string, user: Record<string, unknown>) =>
  writeKubeconfig(join(dir, `kubeconfig-${++n}`), server, ca, user);

interface Whoami {
  status: {
    userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  };
}

describe.skipIf(!kubectlAvailable())('kubectl auth whoami for every method', () => {
  let api: AuthServer;
  let issuerServer: HttpsStub;
  let proxyServer: HttpsStub;
  let issuer: string;
  let proxyUrl: string;
  let ca: string;
  const k1 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const k2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let published = [jwk(k1, 'k1')];

  const whoami = async (kubeconfig: string, ...extra: string[]) => {
    const r = await kubectl(['auth', 'whoami', '-o', 'json', ...extra], { kubeconfig });
    return { ...r, json: r.code === 0 ? (JSON.parse(r.stdout) as Whoami) : undefined };
  };
  const tokenConfig = (token: string) => kubeconfigWith(api.url, ca, { token });
  const adminConfig = () =>
    kubeconfigWith(api.url, ca, {
      'client-certificate-data': Buffer.from(api.tls.admin.cert).toString('base64'),
      'client-key-data': Buffer.from(api.tls.admin.key).toString('base64'),
    });

  beforeAll(async () => {
    const tls = await sharedTls();
    ca = tls.ca.cert;
    // The OIDC issuer: discovery and JWKS over HTTPS with a certificate of the shared CA.
    issuerServer = await startOidcIssuer(tls, () => published);
    issuer = issuerServer.url;

    const proxyCa = await generateCa('front-proxy-ca');
    const proxyCert = await issueClientCert(proxyCa, 'front-proxy-client');
    const signingKey = newServiceAccountSigningKey();
    api = await startAuthServer({
      requestHeaderClientCa: proxyCa.cert,
      authentication: {
        tokenFile: parseTokenFile('static-token-1,jane,uid-jane,"dev,ops"\n', 'tokens.csv'),
        bootstrapTokens: true,
        serviceAccounts: { keys: [], signingKey, issuers: ['https://kubernetes.default.svc.cluster.local'] },
        // A JWKS cache age of 0 lets the rotation below show without waiting out jose's 30 s cooldown.
        oidc: {
          issuerUrl: issuer,
          clientId: 'orchard',
          groupsClaim: 'groups',
          groupsPrefix: 'oidc:',
          fetch: fetchWithCa(ca),
          jwksCacheMaxAgeMs: 0,
        },
        requestHeader: { allowedNames: ['front-proxy-client'] },
      },
      // About authentication: every user may read (the impersonation check stays masters-only).
      server: { authorizationModes: ['AlwaysAllow'] },
    });

    // The authenticating proxy: TLS for kubectl (no client credential), then forwards with its own
    // client certificate and the identity it vouches for. It drops any Authorization header.
    proxyServer = await startHttpsStub(tls, (req, res) => {
      const headers = { ...req.headers };
      delete headers.authorization;
      delete headers.host;
      const up = httpsRequest(
        new URL(req.url ?? '/', api.url),
        {
          method: req.method,
          ca,
          cert: proxyCert.cert,
          key: proxyCert.key,
          headers: {
            ...headers,
            'x-remote-user': 'proxied-user',
            'x-remote-group': ['proxy-group-1', 'proxy-group-2'],
          },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    proxyUrl = proxyServer.url;
  });
  afterAll(async () => {
    await api?.stop();
    await issuerServer?.stop();
    await proxyServer?.stop();
  });

  it('the admin certificate', async () => {
    const kc = adminConfig();
    const table = await kubectl(['auth', 'whoami'], { kubeconfig: kc });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Username\s+admin\n/);
    expect(table.stdout).toMatch(/Groups\s+\[system:masters system:authenticated\]/);
  });

  it('a static token', async () => {
    const r = await whoami(tokenConfig('static-token-1'));
    expect(r.json?.status.userInfo).toEqual({
      username: 'jane',
      uid: 'uid-jane',
      groups: ['dev', 'ops', 'system:authenticated'],
    });
  });

  it('an invalid token: kubectl reports Unauthorized', async () => {
    const r = await whoami(tokenConfig('no-such-token'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });

  it('a bootstrap token', async () => {
    const created = await api.call('POST', '/api/v1/namespaces/kube-system/secrets', {
      cert: api.tls.admin,
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bootstrap-token-k8sabc' },
        type: 'bootstrap.kubernetes.io/token',
        stringData: {
          'token-id': 'k8sabc',
          'token-secret': '0123456789abcdef',
          'usage-bootstrap-authentication': 'true',
          'auth-extra-groups': 'system:bootstrappers:worker',
        },
      },
    });
    expect(created.status).toBe(201);
    const r = await whoami(tokenConfig('k8sabc.0123456789abcdef'));
    expect(r.json?.status.userInfo).toEqual({
      username: 'system:bootstrap:k8sabc',
      groups: ['system:bootstrappers', 'system:bootstrappers:worker', 'system:authenticated'],
    });
  });

  it('a token from kubectl create token (Protobuf TokenRequest)', async () => {
    const admin = adminConfig();
    let created = await kubectl(['create', 'token', 'default'], { kubeconfig: admin });
    // The default ServiceAccount is created by a controller right after start.
    for (let i = 0; i < 100 && created.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      created = await kubectl(['create', 'token', 'default'], { kubeconfig: admin });
    }
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const r = await whoami(tokenConfig(created.stdout));
    expect(r.json?.status.userInfo.username).toBe('system:serviceaccount:default:default');
    expect(r.json?.status.userInfo.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
    const short = await kubectl(['create', 'token', 'default', '--duration=10m'], { kubeconfig: admin });
    expect(short.code, short.stderr).toBe(0);
    const claims = JSON.parse(Buffer.from(short.stdout.split('.')[1] as string, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(600);
    const tooShort = await kubectl(['create', 'token', 'default', '--duration=5m'], { kubeconfig: admin });
    expect(tooShort.code).not.toBe(0);
    const missing = await kubectl(['create', 'token', 'nope'], { kubeconfig: admin });
    expect(missing.stderr).toContain('error: failed to create token: serviceaccounts "nope" not found');
  });

  it('kubectl create token --bound-object-kind Secret: the token dies with the Secret', async () => {
    const admin = adminConfig();
    expect((await kubectl(['create', 'secret', 'generic', 'bound-s1'], { kubeconfig: admin })).code).toBe(0);
    const created = await kubectl(
      ['create', 'token', 'default', '--bound-object-kind=Secret', '--bound-object-name=bound-s1'],
      { kubeconfig: admin },
    );
    expect(created.code, created.stderr).toBe(0);
    const kc = tokenConfig(created.stdout);
    expect((await whoami(kc)).json?.status.userInfo.username).toBe('system:serviceaccount:default:default');
    expect((await kubectl(['delete', 'secret', 'bound-s1'], { kubeconfig: admin })).code).toBe(0);
    const after = await whoami(kc);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('Unauthorized');
    const wrongUid = await kubectl(
      ['create', 'token', 'default', '--bound-object-kind=Pod', '--bound-object-name=nope'],
      { kubeconfig: admin },
    );
    expect(wrongUid.stderr).toContain('pods "nope" not found');
  });

  it('an OIDC token from a local issuer, across a key rotation', async () => {
    const claims = (sub: string) => ({
      iss: issuer,
      aud: 'orchard',
      sub,
      groups: ['dev'],
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const first = await whoami(tokenConfig(jwt(k1.privateKey, 'k1', claims('user-1'))));
    expect(first.json?.status.userInfo).toEqual({
      username: `${issuer}#user-1`,
      groups: ['oidc:dev', 'system:authenticated'],
    });
    // Rotation: the issuer now publishes only k2.
    published = [jwk(k2, 'k2')];
    const rotated = await whoami(tokenConfig(jwt(k2.privateKey, 'k2', claims('user-2'))));
    expect(rotated.json?.status.userInfo.username).toBe(`${issuer}#user-2`);
    const old = await whoami(tokenConfig(jwt(k1.privateKey, 'k1', claims('user-1'))));
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('Unauthorized');
    const wrongAudience = await whoami(
      tokenConfig(jwt(k2.privateKey, 'k2', { ...claims('u'), aud: 'other' })),
    );
    expect(wrongAudience.stderr).toContain('Unauthorized');
    const expired = await whoami(
      tokenConfig(jwt(k2.privateKey, 'k2', { ...claims('u'), exp: Math.floor(Date.now() / 1000) - 3600 })),
    );
    expect(expired.stderr).toContain('Unauthorized');
  });

  it('the authenticating proxy', async () => {
    // kubectl talks to the proxy with a token the proxy ignores: the proxy decides who it is.
    const kc = kubeconfigWith(proxyUrl, ca, { token: 'ignored-by-the-proxy' });
    const r = await whoami(kc);
    expect(r.json?.status.userInfo).toEqual({
      username: 'proxied-user',
      groups: ['proxy-group-1', 'proxy-group-2', 'system:authenticated'],
    });
  });

  it('--as and --as-group', async () => {
    const admin = adminConfig();
    const r = await whoami(admin, '--as=bob', '--as-group=team-a', '--as-group=team-b');
    expect(r.json?.status.userInfo).toEqual({
      username: 'bob',
      groups: ['team-a', 'team-b', 'system:authenticated'],
    });
    const sa = await whoami(admin, '--as=system:serviceaccount:default:robot');
    expect(sa.json?.status.userInfo.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:default',
      'system:authenticated',
    ]);
    // A caller outside system:masters may not impersonate (no authorizer configured). kubectl's
    // whoami words any 403 as a disabled API, so a list shows the server's message.
    // (Discovery is cached first without --as, so the list request itself meets the 403.)
    const jane = tokenConfig('static-token-1');
    expect((await kubectl(['get', 'ns'], { kubeconfig: jane })).code).toBe(0);
    const denied = await kubectl(['get', 'ns', '--as=root'], { kubeconfig: jane });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(
      'users "root" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });
});
