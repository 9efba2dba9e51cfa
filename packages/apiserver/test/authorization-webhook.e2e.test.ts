/**
 * The Webhook authorizer through the real server (doc 2 §2.6, §5.3): an HTTPS SubjectAccessReview
 * service in the test (CA, client certificate and token from its kubeconfig), configured by
 * `--authorization-config` in front of RBAC and by the `--authorization-webhook-*` flags. Under both
 * flavors: the configuration is `apiserver.config.<domain>/v1` and the reviews
 * `authorization.<domain>/<version>`; stock kubectl only under the kubernetes flavor.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueClientCert } from '@orchard/apiserver/tls';
import { type Flavor, flavorByName } from '@orchard/meta';
import { kubectl, kubectlAvailable, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, sharedTls, startAuthServer } from './helpers/auth-server.js';
import { runCli } from './helpers/cli-server.js';
import { type HttpsStub, startJsonWebhook } from './helpers/https-stub.js';

const dir = mkdtempSync(join(tmpdir(), 'authz-webhook-e2e-'));
const hookToken = 'webhook-secret';
/** Every review the webhook received, with what it saw of the caller. */
const reviews: {
  apiVersion: string;
  user: string;
  spec: any;
  token: string | undefined;
  peer: string | undefined;
}[] = [];
/** The reviews one flavor's servers sent (`authorization.<domain>/…`). */
const reviewsOf = (flavor: Flavor) =>
  reviews.filter((r) => r.apiVersion.startsWith(`${flavor.group('authorization')}/`));
const hanging = new Set<() => void>();

/** The remote authorizer: decides by user name. */
async function startWebhook(): Promise<HttpsStub> {
  const tls = await sharedTls();
  return startJsonWebhook(
    tls,
    (review, res, req) => {
      const user: string = review.spec.user;
      const cn = (req.socket as import('node:tls').TLSSocket).getPeerCertificate()?.subject?.CN;
      const peer = cn === undefined ? undefined : String(cn);
      reviews.push({
        apiVersion: String(review.apiVersion),
        user,
        spec: review.spec,
        token: req.headers.authorization,
        peer,
      });
      const answer = (status: object) =>
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
      if (user === 'alice') answer({ allowed: true, reason: 'the hook likes alice' });
      else if (user === 'mallory')
        answer({ allowed: false, denied: true, reason: 'the hook refuses mallory' });
      else if (user === 'slow') hanging.add(() => res.destroy());
      else if (user === 'garbage') res.end('{"kind": "SubjectAccessReview", "status": ');
      else if (user === 'huge')
        res.end(JSON.stringify({ status: { allowed: true, reason: 'x'.repeat(2 << 20) } }));
      else answer({ allowed: false });
    },
    { ca: tls.ca.cert, requestCert: true, rejectUnauthorized: false },
  );
}

async function writeHookKubeconfig(url: string): Promise<string> {
  const tls = await sharedTls();
  const client = await issueClientCert(tls.ca, 'the-apiserver');
  const path = join(dir, 'hook.kubeconfig');
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'hook', cluster: { server: url, 'certificate-authority-data': b64(tls.ca.cert) } }],
      users: [
        {
          name: 'api',
          user: {
            token: hookToken,
            'client-certificate-data': b64(client.cert),
            'client-key-data': b64(client.key),
          },
        },
      ],
      contexts: [{ name: 'c', context: { cluster: 'hook', user: 'api' } }],
      'current-context': 'c',
    }),
  );
  return path;
}
const b64 = (s: string) => Buffer.from(s).toString('base64');

function authorizationConfig(
  flavor: Flavor,
  hookKubeconfig: string,
  failurePolicy: 'NoOpinion' | 'Deny',
): string {
  return `apiVersion: apiserver.config.${flavor.domain}/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: hook
  webhook:
    timeout: 1s
    authorizedTTL: 5m
    unauthorizedTTL: 30s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: ${failurePolicy}
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: ${hookKubeconfig}
    matchConditions:
    - expression: has(request.resourceAttributes)
    - expression: request.resourceAttributes.namespace == 'hooked'
    - expression: request.user != 'excluded'
- type: RBAC
  name: rbac
`;
}

let webhook: HttpsStub;
let hookKubeconfig: string;
beforeAll(async () => {
  webhook = await startWebhook();
  hookKubeconfig = await writeHookKubeconfig(`${webhook.url}/authorize`);
});
afterAll(async () => {
  for (const release of hanging) release();
  await webhook?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['orch', 'kubernetes'] as const)('the Webhook authorizer (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const G = flavor.group('rbac.authorization');
  const callsFor = (user: string) => reviewsOf(flavor).filter((r) => r.user === user).length;

  describe('--authorization-config with a webhook in front of RBAC', () => {
    let api: AuthServer;
    const configPath = join(dir, `authz-${flavorName}.yaml`);
    const certs = new Map<string, { cert: string; key: string }>();
    const logs: string[] = [];
    const as = async (user: string, path = '/api/v1/namespaces/hooked/configmaps') => {
      let cert = certs.get(user);
      if (!cert) {
        cert = await issueClientCert((await sharedTls()).ca, user, ['hook-users']);
        certs.set(user, cert);
      }
      return api.call('GET', path, { cert });
    };
    beforeAll(async () => {
      writeFileSync(configPath, authorizationConfig(flavor, hookKubeconfig, 'NoOpinion'));
      api = await startAuthServer({
        flavor,
        server: {
          authorizationConfigFile: configPath,
          logger: { info: (m) => logs.push(m), error: (m) => logs.push(m) },
        },
      });
      const ns = await api.call('POST', '/api/v1/namespaces', {
        cert: api.tls.admin,
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooked' } },
      });
      expect(ns.status).toBe(201);
      // RBAC lets the group read in `hooked`: what a webhook without an opinion falls back to.
      const binding = await api.call('POST', `/apis/${G}/v1/namespaces/hooked/rolebindings`, {
        cert: api.tls.admin,
        body: {
          apiVersion: `${G}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'hook-users-view', namespace: 'hooked' },
          roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' },
          subjects: [{ kind: 'Group', apiGroup: G, name: 'hook-users' }],
        },
      });
      expect(binding.status).toBe(201);
      await api.server.authorization.synced(Number(binding.json.metadata.resourceVersion));
    });
    afterAll(async () => {
      await api?.stop();
    });

    it('allow, deny and no opinion: the webhook decides, RBAC after it when it has no opinion', async () => {
      const alice = await as('alice');
      expect(alice.status).toBe(200);
      const mallory = await as('mallory');
      expect(mallory.status).toBe(403);
      expect(mallory.json.message).toBe(
        'configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "hooked": the hook refuses mallory',
      );
      // No opinion: RBAC's view binding decides.
      expect((await as('carol')).status).toBe(200);
      expect((await as('carol', '/api/v1/namespaces/hooked/secrets')).status).toBe(403);
      const seen = reviewsOf(flavor).find((r) => r.user === 'alice')!;
      expect(seen.apiVersion).toBe(`${flavor.group('authorization')}/v1`);
      expect(seen.token).toBe(`Bearer ${hookToken}`);
      expect(seen.peer).toBe('the-apiserver');
      expect(seen.spec).toEqual({
        resourceAttributes: {
          namespace: 'hooked',
          verb: 'list',
          group: '',
          version: 'v1',
          resource: 'configmaps',
          subresource: '',
          name: '',
        },
        user: 'alice',
        groups: ['hook-users', 'system:authenticated'],
      });
    });

    it('answers are cached by TTL: repeated requests do not call the webhook again', async () => {
      await as('alice');
      await as('mallory');
      const before = { alice: callsFor('alice'), mallory: callsFor('mallory') };
      for (let i = 0; i < 5; i++) {
        expect((await as('alice')).status).toBe(200);
        expect((await as('mallory')).status).toBe(403);
      }
      expect({ alice: callsFor('alice'), mallory: callsFor('mallory') }).toEqual(before);
    });

    it('match conditions skip the webhook: other namespaces, non-resource paths, an excluded user', async () => {
      const before = reviews.length;
      expect((await as('mallory', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
      expect((await as('mallory', '/version')).status).toBe(200);
      expect((await as('excluded')).status).toBe(200);
      expect(reviews.length).toBe(before);
    });

    it('a timeout, a malformed and an oversized answer follow the failure policy, and a reload flips it', async () => {
      // NoOpinion: RBAC's view binding decides.
      for (const user of ['slow', 'garbage', 'huge']) expect((await as(user)).status, user).toBe(200);
      expect(callsFor('slow')).toBe(1);
      // Failures are not cached.
      expect((await as('garbage')).status).toBe(200);
      expect(callsFor('garbage')).toBe(2);
      writeFileSync(configPath, authorizationConfig(flavor, hookKubeconfig, 'Deny'));
      await waitFor(
        'the reload',
        () => logs.some((m) => m.includes('authorization config: reloaded')),
        90_000,
      );
      expect((await as('garbage')).status).toBe(403);
      for (const user of ['slow', 'garbage', 'huge']) expect((await as(user)).status, user).toBe(403);
      // Allowed users still pass (a fresh cache: the webhook is asked again).
      expect((await as('alice')).status).toBe(200);
    });

    it('a broken edit keeps the configuration in force', async () => {
      writeFileSync(
        configPath,
        `apiVersion: apiserver.config.${flavor.domain}/v1\nkind: AuthorizationConfiguration\nauthorizers: []\n`,
      );
      await waitFor(
        'the rejected edit to be logged',
        () => logs.some((m) => m.includes('authorization config: keeping the last good configuration')),
        90_000,
      );
      expect(logs.find((m) => m.includes('keeping the last good'))).toContain(
        'authorizers: Required value: at least one authorization mode must be defined',
      );
      expect((await as('mallory')).status).toBe(403);
      expect((await as('alice')).status).toBe(200);
    });

    it('/metrics exports the webhook and reload metrics under upstream names', async () => {
      const text = (await api.call('GET', '/metrics', { cert: api.tls.admin })).text;
      for (const line of [
        'apiserver_authorization_webhook_evaluations_total{name="hook",result="success"}',
        'apiserver_authorization_webhook_evaluations_total{name="hook",result="timeout"}',
        'apiserver_authorization_webhook_evaluations_fail_open_total{name="hook",result="error"}',
        'apiserver_authorization_match_condition_exclusions_total{type="Webhook",name="hook"}',
        'apiserver_authorization_config_controller_automatic_reloads_total{status="success"} 1',
        'apiserver_authorization_config_controller_automatic_reloads_total{status="failure"} 1',
      ])
        expect(text).toContain(line);
    });

    // Stock kubectl speaks the kubernetes flavor only.
    if (flavorName === 'kubernetes')
      it('kubectl auth can-i asks the webhook (--flavor kubernetes)', async (ctx) => {
        if (!kubectlAvailable()) ctx.skip(); // no kubectl binary on this machine
        const tls = await sharedTls();
        for (const [user, want] of [
          ['alice', 'yes'],
          ['mallory', 'no'],
        ] as const) {
          const cert = certs.get(user) ?? (await issueClientCert(tls.ca, user, ['hook-users']));
          const kc = join(dir, `${user}.kubeconfig`);
          writeFileSync(
            kc,
            JSON.stringify({
              apiVersion: 'v1',
              kind: 'Config',
              clusters: [
                { name: 'c', cluster: { server: api.url, 'certificate-authority-data': b64(tls.ca.cert) } },
              ],
              users: [
                {
                  name: 'u',
                  user: { 'client-certificate-data': b64(cert.cert), 'client-key-data': b64(cert.key) },
                },
              ],
              contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
              'current-context': 'c',
            }),
          );
          const r = await kubectl(['auth', 'can-i', 'list', 'configmaps', '-n', 'hooked'], {
            kubeconfig: kc,
          });
          expect(r.stdout.trim().split(' ')[0], r.stderr).toBe(want);
        }
      });
  });

  describe('the --authorization-webhook-* flags', () => {
    it('mode Webhook with a kubeconfig: the webhook decides with failure policy NoOpinion', async () => {
      const api = await startAuthServer({
        flavor,
        server: {
          authorizationModes: ['Webhook', 'RBAC'],
          authorizationWebhook: { configFile: hookKubeconfig, version: 'v1beta1' },
        },
      });
      try {
        const tls = await sharedTls();
        const alice = await api.call('GET', '/api/v1/namespaces/default/pods', {
          cert: await issueClientCert(tls.ca, 'alice', ['g']),
        });
        expect(alice.status).toBe(200);
        // v1beta1 names the groups `group`.
        const last = reviewsOf(flavor).at(-1);
        expect(last?.apiVersion).toBe(`${flavor.group('authorization')}/v1beta1`);
        expect(last?.spec).toMatchObject({ user: 'alice', group: ['g', 'system:authenticated'] });
        const bob = await api.call('GET', '/api/v1/namespaces/default/pods', {
          cert: await issueClientCert(tls.ca, 'bob'),
        });
        expect(bob.status).toBe(403);
      } finally {
        await api.stop();
      }
    });
  });
});

describe('start-up errors name the flag (exit status 2)', () => {
  it('--authorization-config with --authorization-mode', async () => {
    const args = '--storage memory --port 0 --authorization-config /x.yaml --authorization-mode RBAC';
    const r = await runCli(args.split(' '));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    );
  });

  it.each(['orch', 'kubernetes'] as const)(
    'a bad configuration file names the file and the field (%s flavor)',
    async (flavorName) => {
      const path = join(dir, `bad-${flavorName}.yaml`);
      writeFileSync(
        path,
        authorizationConfig(flavorByName(flavorName), hookKubeconfig, 'NoOpinion').replace(
          'timeout: 1s',
          'timeout: 45s',
        ),
      );
      const r = await runCli([
        '--storage',
        'memory',
        '--port',
        '0',
        '--flavor',
        flavorName,
        '--authorization-config',
        path,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `--authorization-config: ${path}: authorizers[0].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s`,
      );
    },
  );
});
