import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAuthenticationFlags, normalizeBooleanFlags } from './authentication-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'orchard-authn-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const load = (values: Record<string, string | string[]>, stateDir = join(dir, 'state')) =>
  loadAuthenticationFlags(values, { flavor: kubernetesFlavor, stateDir });

describe('authentication flags', () => {
  it('defaults: a generated signing key reused on restart, the upstream issuer, lookup and anonymous on', async () => {
    const stateDir = join(dir, 'fresh');
    const first = await load({}, stateDir);
    const keyPath = join(stateDir, 'service-account-signing.key');
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(first.notes.join('\n')).toContain(`generated a service-account signing key at ${keyPath}`);
    expect(first.authentication.serviceAccounts).toMatchObject({
      issuers: ['https://kubernetes.default.svc.cluster.local'],
      lookup: true,
      keys: [],
    });
    expect(first.authentication.serviceAccounts?.signingKey?.alg).toBe('ES256');
    expect(first.authentication.anonymous).toEqual({ enabled: true });
    expect(first.authentication.tokenFile).toBeUndefined();
    expect(first.authentication.bootstrapTokens).toBeUndefined();
    const example = readFileSync(join(stateDir, 'static-tokens.example.csv'), 'utf8');
    expect(example).toMatch(/^[0-9a-f]{64},jane,jane-uid,"developers,viewers"$/m);
    const second = await load({}, stateDir);
    expect(second.notes.join('\n')).toContain('reusing the service-account signing key');
    expect(second.authentication.serviceAccounts?.signingKey?.kid).toBe(
      first.authentication.serviceAccounts?.signingKey?.kid,
    );
    const orch = await loadAuthenticationFlags({}, { flavor: orchFlavor, stateDir });
    expect(orch.authentication.serviceAccounts?.issuers).toEqual(['https://orch.default.svc.cluster.local']);
  });

  it('reads every flag', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    const keys = file(
      'sa.pub',
      `${rsa.publicKey.export({ type: 'spki', format: 'pem' })}${ec384.privateKey.export({ type: 'pkcs8', format: 'pem' })}`,
    );
    const signing = file('sa.key', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const r = await load({
      'token-auth-file': file('t.csv', 'a,alice,1,"x,y"\n'),
      'enable-bootstrap-token-auth': 'true',
      'service-account-key-file': [keys],
      'service-account-signing-key-file': signing,
      'service-account-issuer': ['https://one.example', 'two'],
      'service-account-lookup': 'false',
      'service-account-max-token-expiration': '48h',
      'api-audiences': 'api,other',
      'anonymous-auth': 'false',
      'oidc-issuer-url': 'https://issuer.example',
      'oidc-client-id': 'orchard',
      'oidc-username-claim': 'email',
      'oidc-groups-claim': 'groups',
      'oidc-groups-prefix': 'oidc:',
      'oidc-required-claim': ['hd=example.com'],
      'oidc-signing-algs': 'RS256,ES256',
    });
    const a = r.authentication;
    expect(a.tokenFile?.[0]?.user).toEqual({ username: 'alice', uid: '1', groups: ['x', 'y'] });
    expect(a.bootstrapTokens).toBe(true);
    expect(a.serviceAccounts?.keys.map((k) => k.alg)).toEqual(['RS256', 'ES384']);
    expect(a.serviceAccounts).toMatchObject({
      issuers: ['https://one.example', 'two'],
      lookup: false,
      maxExpirationSeconds: 172800,
      apiAudiences: ['api', 'other'],
    });
    expect(a.serviceAccounts?.signingKey?.alg).toBe('RS256');
    expect(a.anonymous).toEqual({ enabled: false });
    expect(a.oidc).toMatchObject({
      issuerUrl: 'https://issuer.example',
      clientId: 'orchard',
      usernameClaim: 'email',
      groupsClaim: 'groups',
      groupsPrefix: 'oidc:',
      requiredClaims: { hd: 'example.com' },
      signingAlgs: ['RS256', 'ES256'],
    });
  });

  it.each([
    [
      { 'token-auth-file': '/nonexistent/t.csv' },
      '--token-auth-file: cannot read /nonexistent/t.csv: ENOENT',
    ],
    [{ 'token-auth-file': 'BAD_CSV' }, 'bad.csv:3: expected token,user,uid[,groups]; got 2 field(s)'],
    [{ 'service-account-key-file': ['NOT_PEM'] }, 'not-pem.txt: no PEM public key'],
    [{ 'service-account-key-file': ['BROKEN_PEM'] }, 'broken.pem:2: cannot read the PUBLIC KEY'],
    [{ 'service-account-signing-key-file': 'NOT_PEM' }, 'not-pem.txt: no PEM private key found'],
    [{ 'service-account-issuer': ['http//x:y z'] }, '--service-account-issuer: Invalid value'],
    [{ 'service-account-lookup': 'maybe' }, 'invalid argument "maybe" for "--service-account-lookup" flag'],
    [{ 'service-account-max-token-expiration': '10m' }, 'must be at least 1h'],
    [{ 'oidc-client-id': 'x' }, '--oidc-issuer-url and --oidc-client-id are both required'],
    [
      { 'oidc-issuer-url': 'https://i', 'oidc-client-id': 'x', 'oidc-required-claim': ['novalue'] },
      '--oidc-required-claim: Invalid value: "novalue"',
    ],
    [
      { 'oidc-issuer-url': 'https://i', 'oidc-client-id': 'x', 'oidc-signing-algs': 'HS256' },
      '--oidc-signing-algs: Invalid value: "HS256"',
    ],
    [{ 'requestheader-allowed-names': 'a' }, '--requestheader-client-ca-file is required'],
    [{ 'requestheader-client-ca-file': 'NOT_PEM' }, 'no PEM certificate found'],
    [{ 'client-ca-file': 'NOT_PEM' }, '--client-ca-file'],
  ])('%j → a start-up error naming the flag, file or line', async (values, message) => {
    const subst = (v: string) =>
      v === 'BAD_CSV'
        ? file('bad.csv', '# c\nok,u,1\nbroken,line\n')
        : v === 'NOT_PEM'
          ? file('not-pem.txt', 'hello')
          : v === 'BROKEN_PEM'
            ? file('broken.pem', '\n-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')
            : v;
    const resolved = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v.map(subst) : subst(v)]),
    );
    await expect(load(resolved)).rejects.toThrow(message);
  });

  it('reads a bare boolean flag as =true', () => {
    expect(
      normalizeBooleanFlags(['--anonymous-auth', '--enable-bootstrap-token-auth', '--port', '1']),
    ).toEqual(['--anonymous-auth=true', '--enable-bootstrap-token-auth=true', '--port', '1']);
  });
});

describe('--authentication-config and the token webhook flags', () => {
  const config = (extra = '') =>
    file(
      `authn-${Math.random().toString(36).slice(2)}.yaml`,
      `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.test
    audiences: [orchard]
  claimMappings:
    username:
      claim: sub
      prefix: "issuer:"
${extra}`,
    );

  it('loads the file as a token plugin and reports it', async () => {
    const r = await load({ 'authentication-config': config() });
    expect(r.authenticationConfig?.configuration.jwt).toHaveLength(1);
    expect(r.authentication.tokenAuthenticators).toEqual([r.authenticationConfig]);
    expect(r.notes.join('\n')).toContain('1 JWT authenticators, reloaded on change');
    expect(r.authentication.anonymous).toEqual({ enabled: true });
  });

  it('any --oidc-* flag with it is an error', async () => {
    await expect(
      load({ 'authentication-config': config(), 'oidc-issuer-url': 'https://x', 'oidc-client-id': 'a' }),
    ).rejects.toThrow(
      '--authentication-config and --oidc-issuer-url, --oidc-client-id are mutually exclusive',
    );
  });

  it('a bad file names the file and the field', async () => {
    const p = file(
      'bad-authn.yaml',
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "https://x"}\n',
    );
    await expect(load({ 'authentication-config': p })).rejects.toThrow(
      `${p}: [jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, jwt[0].claimMappings.username: Required value: claim or expression is required]`,
    );
    await expect(load({ 'authentication-config': join(dir, 'nope.yaml') })).rejects.toThrow(
      'nope.yaml: cannot read',
    );
  });

  it('the service-account issuer may not be a JWT issuer', async () => {
    await expect(
      load({ 'authentication-config': config(), 'service-account-issuer': 'https://issuer.test' }),
    ).rejects.toThrow(
      'jwt[0].issuer.url: Invalid value: "https://issuer.test": URL must not overlap with disallowed issuers',
    );
  });

  it('anonymous in the file: its paths; with --anonymous-auth: an error', async () => {
    const p = config('anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n');
    expect((await load({ 'authentication-config': p })).authentication.anonymous).toEqual({
      enabled: true,
      paths: ['/livez'],
    });
    await expect(load({ 'authentication-config': p, 'anonymous-auth': 'true' })).rejects.toThrow(
      '--anonymous-auth flag cannot be set when anonymous field is configured in the authentication configuration file',
    );
    // without the section, the flag still decides
    expect(
      (await load({ 'authentication-config': config(), 'anonymous-auth': 'false' })).authentication.anonymous,
    ).toEqual({ enabled: false });
  });

  it('feature gates off refuse the file or its anonymous section', async () => {
    await expect(
      loadAuthenticationFlags(
        { 'authentication-config': config() },
        {
          flavor: kubernetesFlavor,
          stateDir: join(dir, 'state'),
          featureGates: { StructuredAuthenticationConfiguration: false },
        },
      ),
    ).rejects.toThrow('StructuredAuthenticationConfiguration feature gate is disabled');
    await expect(
      loadAuthenticationFlags(
        { 'authentication-config': config('anonymous:\n  enabled: true\n') },
        {
          flavor: kubernetesFlavor,
          stateDir: join(dir, 'state'),
          featureGates: { AnonymousAuthConfigurableEndpoints: false },
        },
      ),
    ).rejects.toThrow('anonymous: Forbidden');
  });

  it('webhook flags', async () => {
    const kc = file(
      'webhook.kubeconfig',
      'clusters:\n- name: w\n  cluster: {server: "https://127.0.0.1:1/authn"}\nusers:\n- name: u\n  user: {token: t}\n',
    );
    const r = await load({
      'authentication-token-webhook-config-file': kc,
      'authentication-token-webhook-cache-ttl': '30s',
    });
    expect(r.authentication.tokenAuthenticators).toHaveLength(1);
    expect(r.notes.join('\n')).toContain(
      'token webhook https://127.0.0.1:1/authn (TokenReview v1, cache 30s)',
    );
    await expect(load({ 'authentication-token-webhook-cache-ttl': '30s' })).rejects.toThrow(
      '--authentication-token-webhook-config-file is required with --authentication-token-webhook-cache-ttl',
    );
    await expect(
      load({ 'authentication-token-webhook-config-file': kc, 'authentication-token-webhook-version': 'v2' }),
    ).rejects.toThrow('--authentication-token-webhook-version: Unsupported value: "v2"');
    await expect(
      load({
        'authentication-token-webhook-config-file': kc,
        'authentication-token-webhook-cache-ttl': 'soon',
      }),
    ).rejects.toThrow('--authentication-token-webhook-cache-ttl: Invalid value: "soon"');
    const bad = file('bad-webhook.kubeconfig', 'clusters: []\n');
    await expect(load({ 'authentication-token-webhook-config-file': bad })).rejects.toThrow(
      `${bad}: clusters: Required value`,
    );
  });
});
