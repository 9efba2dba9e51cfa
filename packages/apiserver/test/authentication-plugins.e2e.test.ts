import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueClientCert } from '@orchard/apiserver/tls';
import { createWebhookTokenAuthenticator, loadWebhookKubeconfig, parseTokenFile } from '@orchard/authn';
import { createRestClient, isClientError, loadKubeconfig, resolveConnection } from '@orchard/client';
import { kubectl, kubectlAvailable } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthServer,
  clientWhoami,
  flavors,
  sharedTls,
  startAuthServer,
  unauthorizedStatus,
} from './helpers/auth-server.js';
import { type HttpsStub, startJsonWebhook } from './helpers/https-stub.js';
import { writeKubeconfig as kubeconfigWith } from './helpers/oidc-issuer.js';

/**
 * The client side of authentication (doc 2 §2.7) and the token webhook, through the real server: an
 * exec credential plugin drives kubectl and @orchard/client against the server's static tokens (a
 * stale credential is refreshed after a 401), an exec plugin answering a client certificate, and a
 * webhook token authenticator. Every HTTP-level suite runs under both flavors
 * (`client.authentication.<domain>`, `authentication.<domain>`); kubectl only under the kubernetes flavor.
 */
const dir = mkdtempSync(join(tmpdir(), 'orchard-authn-plugins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(flavors)('exec credential plugin against the real server ($name flavor)', (flavor) => {
  const execApiVersion = `${flavor.group('client.authentication')}/v1`;
  let api: AuthServer;
  // Hands out the tokens listed in $STATE/tokens in turn (the last one repeats), with an expiry an
  // hour ahead (or $EXPIRES_IN seconds), recording KUBERNETES_EXEC_INFO; answers in the $API_VERSION
  // the kubeconfig names.
  const plugin = `#!/bin/sh
n=$(cat "$STATE/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$STATE/count"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$STATE/info"
tok=$(sed -n "\${n}p" "$STATE/tokens"); [ -n "$tok" ] || tok=$(tail -n 1 "$STATE/tokens")
exp=$(date -u -d "@$(( $(date +%s) + \${EXPIRES_IN:-3600} ))" +%Y-%m-%dT%H:%M:%SZ)
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}' "$API_VERSION" "$tok" "$exp"
`;
  beforeAll(async () => {
    api = await startAuthServer({
      flavor,
      authentication: { tokenFile: parseTokenFile('tok-jane,jane,uid-jane,"dev,ops"\n', 'tokens.csv') },
    });
    writeFileSync(join(dir, 'cred.sh'), plugin);
    chmodSync(join(dir, 'cred.sh'), 0o755);
  });
  afterAll(() => api?.stop());

  const execKubeconfig = (name: string, tokens: string[], expiresIn = 3600) => {
    const sdir = mkdtempSync(join(dir, `${name}-${flavor.name}-`));
    writeFileSync(join(sdir, 'tokens'), `${tokens.join('\n')}\n`);
    const path = kubeconfigWith(
      join(dir, `${name}-${flavor.name}.kubeconfig`),
      api.url,
      api.tls.ca.cert,
      {
        exec: {
          apiVersion: execApiVersion,
          command: './cred.sh',
          interactiveMode: 'Never',
          provideClusterInfo: true,
          env: [
            { name: 'STATE', value: sdir },
            { name: 'API_VERSION', value: execApiVersion },
            { name: 'EXPIRES_IN', value: String(expiresIn) },
          ],
        },
      },
      {
        // The per-cluster configuration handed to the plugin (provideClusterInfo) in the flavor's name.
        extensions: [
          { name: `${flavor.group('client.authentication')}/exec`, extension: { audience: 'orchard' } },
        ],
      },
    );
    return { path, sdir };
  };

  it('@orchard/client: a stale credential is refreshed after a 401 and the request retried once', async () => {
    const { path, sdir } = execKubeconfig('client', ['tok-revoked', 'tok-jane']);
    const client = createRestClient(resolveConnection(loadKubeconfig(path)));
    const review = await clientWhoami(client, flavor);
    expect(review.status.userInfo).toMatchObject({
      username: 'jane',
      groups: ['dev', 'ops', 'system:authenticated'],
    });
    expect(readFileSync(join(sdir, 'count'), 'utf8').trim()).toBe('2');
    const info = JSON.parse(readFileSync(join(sdir, 'info'), 'utf8'));
    expect(info).toMatchObject({
      apiVersion: execApiVersion,
      kind: 'ExecCredential',
      spec: { interactive: false, cluster: { server: api.url, config: { audience: 'orchard' } } },
    });
    // a plugin whose every token is refused: one retry, then the 401 reaches the caller
    const bad = execKubeconfig('client-bad', ['tok-revoked']);
    const e = await createRestClient(resolveConnection(loadKubeconfig(bad.path)))
      .json({ path: '/api/v1/namespaces' })
      .catch((x: unknown) => x);
    expect(isClientError(e, 'Status') && e.status).toBe(401);
    expect(readFileSync(join(bad.sdir, 'count'), 'utf8').trim()).toBe('2');
  });

  it('@orchard/client: a credential is cached until it expires, an expired one is fetched again', async () => {
    const cached = execKubeconfig('client-cached', ['tok-jane']);
    const client = createRestClient(resolveConnection(loadKubeconfig(cached.path)));
    for (let i = 0; i < 2; i++)
      expect((await clientWhoami(client, flavor)).status.userInfo.username).toBe('jane');
    expect(readFileSync(join(cached.sdir, 'count'), 'utf8').trim()).toBe('1');
    const expired = execKubeconfig('client-expired', ['tok-jane'], -60);
    const again = createRestClient(resolveConnection(loadKubeconfig(expired.path)));
    for (let i = 0; i < 2; i++)
      expect((await clientWhoami(again, flavor)).status.userInfo.username).toBe('jane');
    expect(readFileSync(join(expired.sdir, 'count'), 'utf8').trim()).toBe('2');
  });

  // Stock kubectl speaks the kubernetes flavor only.
  it.runIf(flavor.name === 'kubernetes')(
    'kubectl runs the plugin (relative command, KUBERNETES_EXEC_INFO) and is the token user',
    async (ctx) => {
      if (!kubectlAvailable()) ctx.skip(); // no kubectl binary on this machine
      const { path, sdir } = execKubeconfig('kubectl', ['tok-jane']);
      const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: path });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status.userInfo).toMatchObject({
        username: 'jane',
        groups: ['dev', 'ops', 'system:authenticated'],
      });
      const info = JSON.parse(readFileSync(join(sdir, 'info'), 'utf8'));
      expect(info).toMatchObject({
        apiVersion: execApiVersion,
        kind: 'ExecCredential',
        spec: { interactive: false, cluster: { server: api.url, config: { audience: 'orchard' } } },
      });
    },
  );
});

describe.each(flavors)(
  'exec plugin client certificates and the token webhook, through the real server ($name flavor)',
  (flavor) => {
    const authn = flavor.group('authentication');
    const kubectlToo = flavor.name === 'kubernetes'; // stock kubectl speaks the kubernetes flavor only
    let api: AuthServer;
    let webhook: HttpsStub;
    const reviews: unknown[] = [];
    beforeAll(async () => {
      const tls = await sharedTls();
      // The remote token service: "hook-jane" is jane, everything else unknown.
      webhook = await startJsonWebhook(tls, (review: { spec: { token: string } }, res) => {
        reviews.push(review);
        const ok = review.spec.token === 'hook-jane';
        if (review.spec.token === 'hook-500') {
          res.statusCode = 500;
          res.end('{}');
          return;
        }
        if (review.spec.token === 'hook-garbage') {
          res.end('{"status": {"authenticated": true, "user": {"username": 42}}');
          return;
        }
        res.end(
          JSON.stringify({
            apiVersion: `${authn}/v1`,
            kind: 'TokenReview',
            status: ok
              ? {
                  authenticated: true,
                  user: {
                    username: 'hook:jane',
                    uid: 'h-1',
                    groups: ['hookers'],
                    extra: { 'example.com/team': ['a'] },
                  },
                }
              : { authenticated: false },
          }),
        );
      });
      const hookKubeconfig = kubeconfigWith(
        join(dir, `webhook-${flavor.name}.kubeconfig`),
        `${webhook.url}/authenticate`,
        tls.ca.cert,
        {},
      );
      api = await startAuthServer({
        flavor,
        authentication: {
          tokenAuthenticators: [
            createWebhookTokenAuthenticator({
              connection: loadWebhookKubeconfig(hookKubeconfig),
              flavor,
            }),
          ],
        },
      });
      writeFileSync(join(dir, 'answer.sh'), '#!/bin/sh\ncat "$ANSWER"\n');
      chmodSync(join(dir, 'answer.sh'), 0o755);
    });
    afterAll(async () => {
      await api?.stop();
      await webhook?.stop();
    });

    it('a token the webhook accepts is its user (whoami, TokenReview, kubectl); others are 401', async () => {
      const me = await api.whoami({ headers: { authorization: 'Bearer hook-jane' } });
      expect(me.json.status.userInfo).toEqual({
        username: 'hook:jane',
        uid: 'h-1',
        groups: ['hookers', 'system:authenticated'],
        extra: { 'example.com/team': ['a'] },
      });
      expect(reviews.at(-1)).toMatchObject({
        apiVersion: `${authn}/v1`,
        kind: 'TokenReview',
        spec: { token: 'hook-jane' },
      });
      // Refused, a failing service and a malformed answer: each the same 401.
      for (const t of ['hook-mallory', 'hook-500', 'hook-garbage']) {
        const bad = await api.whoami({ headers: { authorization: `Bearer ${t}` } });
        expect(bad.status, t).toBe(401);
        expect(bad.json, t).toEqual(unauthorizedStatus);
      }
      const review = await api.call('POST', `/apis/${authn}/v1/tokenreviews`, {
        cert: api.tls.admin,
        body: { apiVersion: `${authn}/v1`, kind: 'TokenReview', spec: { token: 'hook-jane' } },
      });
      expect(review.json.status).toMatchObject({ authenticated: true, user: { username: 'hook:jane' } });
      if (!kubectlToo || !kubectlAvailable()) return; // kubectl: kubernetes flavor, binary present
      const kc = kubeconfigWith(join(dir, 'hook-user.kubeconfig'), api.url, api.tls.ca.cert, {
        token: 'hook-jane',
      });
      const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: kc });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status.userInfo.username).toBe('hook:jane');
    });

    it('an exec plugin answering a client certificate: @orchard/client and kubectl are its CN', async () => {
      const pair = await issueClientCert(api.tls.ca, 'exec-user', ['exec-group']);
      const answer = join(dir, `answer-${flavor.name}.json`);
      const execApiVersion = `${flavor.group('client.authentication')}/v1beta1`;
      writeFileSync(
        answer,
        JSON.stringify({
          apiVersion: execApiVersion,
          kind: 'ExecCredential',
          status: { clientCertificateData: pair.cert, clientKeyData: pair.key },
        }),
      );
      const kc = kubeconfigWith(join(dir, `exec-cert-${flavor.name}.kubeconfig`), api.url, api.tls.ca.cert, {
        exec: {
          apiVersion: execApiVersion,
          command: './answer.sh',
          env: [{ name: 'ANSWER', value: answer }],
        },
      });
      const client = createRestClient({
        ...resolveConnection(loadKubeconfig(kc)),
        execOptions: { stdinIsTerminal: false },
      });
      const review = await clientWhoami(client, flavor);
      expect(review.status.userInfo).toMatchObject({
        username: 'exec-user',
        groups: ['exec-group', 'system:authenticated'],
      });
      if (!kubectlToo || !kubectlAvailable()) return; // kubectl: kubernetes flavor, binary present
      const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: kc });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status.userInfo.username).toBe('exec-user');
    });
  },
);
