import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuthenticationConfigController, createAuthenticationConfigController } from '@orchard/authn';
import { createRestClient, loadKubeconfig, resolveConnection } from '@orchard/client';
import { kubectl, kubectlAvailable, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  type AuthServer,
  clientWhoami,
  flavors,
  sharedTls,
  startAuthServer,
  unauthorizedStatus,
} from './helpers/auth-server.js';
import { runCli, spawnCli } from './helpers/cli-server.js';
import type { HttpsStub } from './helpers/https-stub.js';
import {
  b64url,
  signJwt as jwt,
  writeKubeconfig as kubeconfigWith,
  publicJwk,
  startOidcIssuer,
} from './helpers/oidc-issuer.js';

/**
 * Structured JWT authentication end to end (doc 2 §2.5): a local HTTPS issuer (discovery + JWKS), an
 * AuthenticationConfiguration whose CEL claim mapping builds the username from two claims and whose
 * user validation rule rejects `system:` names, edits of the file taking effect without a restart,
 * and a broken edit keeping the last good configuration. kubectl (`--flavor kubernetes`) sees the
 * same users. The client side (exec credential plugins) and the token webhook are in
 * authentication-plugins.e2e.test.ts. Every HTTP-level suite runs under both flavors
 * (`apiserver.config.<domain>`, `authentication.<domain>`); kubectl only under the kubernetes flavor.
 */
const dir = mkdtempSync(join(tmpdir(), 'orchard-structured-authn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(flavors)('structured JWT authenticators through the real server ($name flavor)', (flavor) => {
  const kubernetes = flavor.name === 'kubernetes';
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let issuerServer: HttpsStub;
  let issuer: string;
  let api: AuthServer;
  let controller: AuthenticationConfigController;
  const logs: string[] = [];
  const configPath = join(dir, `authn-${flavor.name}.yaml`);

  const configFor = (
    usernameExpression: string,
    ca: string,
  ) => `apiVersion: ${flavor.group('apiserver.config')}/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuer}
    audiences: [orchard]
    certificateAuthority: |
${ca
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
  claimMappings:
    username:
      expression: '${usernameExpression}'
    groups:
      claim: groups
      prefix: "oidc:"
    uid:
      claim: sub
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: username cannot use reserved system- prefix
`;
  const token = (over: Record<string, unknown> = {}, key = keys.privateKey, kid = 'k1') => {
    const now = Math.floor(Date.now() / 1000);
    return jwt(key, kid, {
      iss: issuer,
      aud: 'orchard',
      sub: 'u-42',
      given: 'jane',
      family: 'doe',
      groups: ['dev'],
      iat: now,
      nbf: now - 5,
      exp: now + 600,
      ...over,
    });
  };
  const whoami = async (t: string) => api.whoami({ headers: { authorization: `Bearer ${t}` } });

  beforeAll(async () => {
    const tls = await sharedTls();
    issuerServer = await startOidcIssuer(tls, () => [publicJwk(keys, 'k1')]);
    issuer = issuerServer.url;
    writeFileSync(configPath, configFor('claims.given + "." + claims.family', tls.ca.cert));
    controller = createAuthenticationConfigController({
      path: configPath,
      parse: { flavor },
      pollIntervalMs: 50,
      log: (m) => logs.push(m),
    });
    controller.start();
    api = await startAuthServer({ flavor, authentication: { tokenAuthenticators: [controller] } });
  });
  afterAll(async () => {
    controller?.stop();
    await api?.stop();
    await issuerServer?.stop();
  });

  it('the CEL mapping builds the username from two claims; groups and uid by claim', async () => {
    const r = await whoami(token());
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({
      username: 'jane.doe',
      uid: 'u-42',
      groups: ['oidc:dev', 'system:authenticated'],
    });
  });

  it.each([
    ['a system: username (user validation rule)', { given: 'system:kube', family: 'x' }],
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
    ['another audience', { aud: 'other' }],
    ['a claim the mapping needs is missing', { family: undefined }],
  ])('401 for %s, a Status that names no check', async (_name, over) => {
    // JSON.stringify drops undefined: { family: undefined } leaves the claim out.
    const t = token(over);
    const r = await whoami(t);
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it.each([
    ['not yet valid', () => token({ nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ['wrong signature (kid k1, another key)', () => token({}, stranger.privateKey)],
    ['wrong issuer', () => token({ iss: 'https://elsewhere.test' })],
    ['unknown kid (a key the issuer never published)', () => token({}, stranger.privateKey, 'k9')],
    [
      'wrong algorithm (HS256 keyed with the public JWK)',
      () => {
        const input = `${b64url('{"alg":"HS256","kid":"k1"}')}.${token().split('.')[1]}`;
        return `${input}.${createHmac('sha256', JSON.stringify(keys.publicKey.export({ format: 'jwk' })))
          .update(input)
          .digest('base64url')}`;
      },
    ],
    ['alg none', () => `${b64url('{"alg":"none"}')}.${token().split('.')[1]}.`],
    ['malformed', () => 'a.b.c'],
  ])('401 for a token that is %s', async (_name, make) => {
    const r = await whoami(make());
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  // Stock kubectl speaks the kubernetes flavor only.
  it.runIf(kubernetes)('kubectl auth whoami shows the mapped user', async (ctx) => {
    if (!kubectlAvailable()) ctx.skip(); // no kubectl binary on this machine
    const kc = kubeconfigWith(join(dir, 'jwt.kubeconfig'), api.url, api.tls.ca.cert, { token: token() });
    const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: kc });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status.userInfo).toMatchObject({
      username: 'jane.doe',
      groups: ['oidc:dev', 'system:authenticated'],
    });
  });

  it('the CLI with --authentication-config: the mapped user (kubectl too) and a file edit applies while it runs', async () => {
    const tls = await sharedTls();
    const cliConfig = join(dir, `cli-live-authn-${flavor.name}.yaml`);
    writeFileSync(cliConfig, configFor('claims.given + "." + claims.family', tls.ca.cert));
    const dataDir = join(dir, `cli-live-${flavor.name}`);
    const cli = spawnCli([
      '--port',
      '0',
      '--flavor',
      flavor.name,
      '--storage',
      'memory',
      '--data-dir',
      dataDir,
      '--authentication-config',
      cliConfig,
    ]);
    const out = () => cli.stdout();
    const err = () => cli.stderr();
    try {
      await waitFor('the CLI to listen', () => out().includes('kubeconfig written'), 30_000);
      expect(out()).toContain('token-plugins');
      expect(err()).toContain(`authentication config ${cliConfig}: 1 JWT authenticators, reloaded on change`);
      const url = /listening on (\S+)/.exec(out())![1]!;
      const admin = parseYaml(readFileSync(join(dataDir, 'admin.kubeconfig'), 'utf8'));
      const ca = Buffer.from(admin.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
      const kc = kubeconfigWith(join(dir, `cli-live-${flavor.name}.kubeconfig`), url, ca, { token: token() });
      const who = async () =>
        (await clientWhoami(createRestClient(resolveConnection(loadKubeconfig(kc))), flavor)).status.userInfo
          .username;
      expect(await who()).toBe('jane.doe');
      writeFileSync(cliConfig, configFor('"cli:" + claims.given', tls.ca.cert));
      // the CLI checks the file every 5 s
      await waitFor('the CLI to apply the edit', async () => (await who()) === 'cli:jane', 20_000);
      expect(err()).toContain(`authentication config: reloaded ${cliConfig}`);
      // Stock kubectl speaks the kubernetes flavor only; no kubectl binary: nothing more to run.
      if (!kubernetes || !kubectlAvailable()) return;
      const r = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig: kc });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).status.userInfo.username).toBe('cli:jane');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  }, 60_000);

  it('an edit takes effect without a restart; a broken edit keeps the last good configuration', async () => {
    const tls = await sharedTls();
    writeFileSync(configPath, configFor('claims.family + "/" + claims.given', tls.ca.cert));
    await waitFor(
      'the edited mapping',
      async () => (await whoami(token())).json?.status?.userInfo?.username === 'doe/jane',
    );
    expect(controller.metrics.lastReloadTimestamp.get({ status: 'success' })).toBeGreaterThan(0);
    expect(logs.some((l) => l.includes(`reloaded ${configPath}`))).toBe(true);

    writeFileSync(configPath, `${configFor('claims.given', tls.ca.cert)}  - expression: "claims. +"\n`);
    await waitFor(
      'the rejected edit',
      () => (controller.metrics.reloads.get({ status: 'failure' }) ?? 0) >= 1,
    );
    expect(logs.at(-1)).toContain(`keeping the last good configuration: ${configPath}`);
    expect((await whoami(token())).json.status.userInfo.username).toBe('doe/jane');
  });
});

describe('orchard-apiserver start-up errors', () => {
  const start = (args: string[]) =>
    runCli(['--port', '0', '--storage', 'memory', '--data-dir', join(dir, 'cli'), ...args]);

  it('--authentication-config with an --oidc-* flag, or a bad file naming file and field, exits 2', async () => {
    const good = join(dir, 'cli-authn.yaml');
    writeFileSync(good, 'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\n');
    const both = await start([
      '--authentication-config',
      good,
      '--oidc-issuer-url',
      'https://x',
      '--oidc-client-id',
      'a',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      '--authentication-config and --oidc-issuer-url, --oidc-client-id are mutually exclusive',
    );
    const bad = join(dir, 'cli-bad.yaml');
    writeFileSync(
      bad,
      'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://x", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n',
    );
    const r = await start(['--authentication-config', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${bad}: jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https`,
    );
  });
});
