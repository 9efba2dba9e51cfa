import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuthenticationConfiguration } from './authentication-config.js';
import { createAuthenticationConfigController } from './authentication-config-controller.js';
import { isAuthnError } from './errors.js';
import { createJwtAuthenticator } from './jwt-authenticator.js';

const issuer = 'https://issuer.test';
let clock = Date.parse('2026-01-01T00:00:00Z');
const now = () => clock;
const sec = () => Math.floor(clock / 1000);
type Pair = { priv: CryptoKey; jwk: JWK };
let k1: Pair;
let stranger: Pair;
let fetches = 0;

async function pair(kid: string): Promise<Pair> {
  const p = await generateKeyPair('RS256');
  return { priv: p.privateKey, jwk: { ...(await exportJWK(p.publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const fakeFetch = async (url: string) => {
  fetches++;
  if (url === `${issuer}/.well-known/openid-configuration`)
    return Response.json({ issuer, jwks_uri: `${issuer}/keys` });
  if (url === `${issuer}/keys`) return Response.json({ keys: [k1.jwk] });
  return new Response('not found', { status: 404 });
};

beforeAll(async () => {
  k1 = await pair('k1');
  stranger = await pair('k1');
});

const config = `apiVersion: apiserver.config.orch.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuer}
    audiences: [orchard, other]
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - claim: tenant
    requiredValue: a
  - expression: "!has(claims.blocked)"
    message: blocked
  claimMappings:
    username:
      expression: claims.given + "." + claims.family
    groups:
      claim: groups
      prefix: "oidc:"
    uid:
      claim: sub
    extra:
    - key: example.com/level
      valueExpression: "has(claims.level) ? claims.level : []"
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: username cannot use reserved system- prefix
`;

function token(over: Record<string, unknown> = {}, key: Pair = k1, alg = 'RS256') {
  const claims = {
    iss: issuer,
    aud: 'orchard',
    sub: 'u-1',
    given: 'jane',
    family: 'doe',
    groups: ['dev', 'ops'],
    tenant: 'a',
    iat: sec(),
    nbf: sec(),
    exp: sec() + 600,
    ...over,
  };
  for (const [k, v] of Object.entries(claims))
    if (v === undefined) delete (claims as Record<string, unknown>)[k];
  return new SignJWT(claims).setProtectedHeader({ alg, kid: key.jwk.kid! }).sign(key.priv);
}

function authn(cacheTtl = 0) {
  const c = parseAuthenticationConfiguration(config);
  return createJwtAuthenticator(c.jwt[0]!, { fetch: fakeFetch, now, verifiedTokenCacheTtlMs: cacheTtl });
}

async function outcome(a: ReturnType<typeof authn>, t: string) {
  try {
    const r = await a.authenticateToken(t);
    return r.kind === 'user' ? r.user : 'none';
  } catch (e) {
    expect(isAuthnError(e, 'Unauthorized')).toBe(true);
    expect((e as Error).message).toBe('Unauthorized');
    return 'Unauthorized';
  }
}

describe('structured JWT authenticator', () => {
  const rows: [string, () => Promise<string>, unknown][] = [
    [
      'valid: username from two claims, prefixed groups, uid, extra',
      () => token({ level: 'gold' }),
      {
        username: 'jane.doe',
        uid: 'u-1',
        groups: ['oidc:dev', 'oidc:ops'],
        extra: { 'example.com/level': ['gold'] },
      },
    ],
    [
      'a second audience of the list',
      () => token({ aud: ['x', 'other'] }),
      expect.objectContaining({ username: 'jane.doe' }),
    ],
    [
      'a groups claim that is one string',
      () => token({ groups: 'dev' }),
      expect.objectContaining({ groups: ['oidc:dev'] }),
    ],
    ['expired', () => token({ exp: sec() - 10, nbf: sec() - 100, iat: sec() - 100 }), 'Unauthorized'],
    ['not yet valid', () => token({ nbf: sec() + 3600, exp: sec() + 7200 }), 'Unauthorized'],
    ['no exp', () => token({ exp: undefined }), 'Unauthorized'],
    ['wrong signature', () => token({}, stranger), 'Unauthorized'],
    ['other issuer: no opinion', () => token({ iss: 'https://elsewhere.test' }), 'none'],
    ['wrong audience', () => token({ aud: 'someone' }), 'Unauthorized'],
    ['malformed: no opinion', async () => 'not.a.jwt', 'none'],
    ['not three parts: no opinion', async () => 'abc', 'none'],
    [
      'wrong algorithm (HS256 with the public key as secret)',
      () =>
        new SignJWT({ iss: issuer, aud: 'orchard', given: 'a', family: 'b', tenant: 'a', exp: sec() + 60 })
          .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
          .sign(new TextEncoder().encode('secret')),
      'Unauthorized',
    ],
    [
      'alg none',
      async () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer, aud: 'orchard', exp: sec() + 60 })).toString('base64url')}.`,
      'Unauthorized',
    ],
    ['required claim value wrong', () => token({ tenant: 'b' }), 'Unauthorized'],
    ['required claim missing', () => token({ tenant: undefined }), 'Unauthorized'],
    ['required claim not a string', () => token({ tenant: ['a'] }), 'Unauthorized'],
    ['claim validation expression false', () => token({ blocked: true }), 'Unauthorized'],
    ['user validation rule rejects system:', () => token({ given: 'system:jane' }), 'Unauthorized'],
    ['username expression errors (claim missing)', () => token({ family: undefined }), 'Unauthorized'],
    ['username not a string', () => token({ given: 1, family: 2 }), 'Unauthorized'],
    ['groups of the wrong type', () => token({ groups: [1, 2] }), 'Unauthorized'],
    ['extra of the wrong type', () => token({ level: { a: 1 } }), 'Unauthorized'],
    ['uid of the wrong type', () => token({ sub: 5 }), 'Unauthorized'],
    [
      '__proto__ and constructor claims are plain claims',
      async () => {
        const t = await token();
        const [h, , s] = t.split('.');
        const body = JSON.stringify({ iss: issuer, aud: 'orchard', exp: sec() + 60 }).replace(
          /}$/,
          ',"__proto__":{"given":"x"},"constructor":1}',
        );
        return `${h}.${Buffer.from(body).toString('base64url')}.${s}`;
      },
      'Unauthorized',
    ],
  ];
  for (const [name, make, expected] of rows) {
    it(name, async () => {
      expect(await outcome(authn(), await make())).toEqual(expected);
    });
  }

  it('an empty username is refused', async () => {
    const c = parseAuthenticationConfiguration(
      config.replace('expression: claims.given + "." + claims.family', 'expression: "\\"\\""'),
    );
    const a = createJwtAuthenticator(c.jwt[0]!, { fetch: fakeFetch, now, verifiedTokenCacheTtlMs: 0 });
    expect(await outcome(a, await token())).toBe('Unauthorized');
  });

  it('claim-mapped email username requires email_verified when present', async () => {
    const c = parseAuthenticationConfiguration(
      config.replace('expression: claims.given + "." + claims.family', 'claim: email\n      prefix: ""'),
    );
    const a = createJwtAuthenticator(c.jwt[0]!, { fetch: fakeFetch, now, verifiedTokenCacheTtlMs: 0 });
    expect(await outcome(a, await token({ email: 'j@x.test', email_verified: true }))).toEqual(
      expect.objectContaining({ username: 'j@x.test' }),
    );
    expect(await outcome(a, await token({ email: 'j@x.test', email_verified: false }))).toBe('Unauthorized');
    expect(await outcome(a, await token({ email: 'j@x.test' }))).toEqual(
      expect.objectContaining({ username: 'j@x.test' }),
    );
  });

  it('key rotation: a token of a newly published key verifies after the JWKS is fetched again', async () => {
    const k2 = await pair('k2');
    let published = [k1.jwk];
    let keyFetches = 0;
    const rotatingFetch = async (url: string) => {
      if (url.endsWith('/keys')) {
        keyFetches++;
        return Response.json({ keys: published });
      }
      return Response.json({ issuer, jwks_uri: `${issuer}/keys` });
    };
    const c = parseAuthenticationConfiguration(config);
    const a = createJwtAuthenticator(c.jwt[0]!, {
      fetch: rotatingFetch,
      now,
      verifiedTokenCacheTtlMs: 0,
      jwksRefetchCooldownMs: 0,
    });
    expect(await outcome(a, await token())).toEqual(expect.objectContaining({ username: 'jane.doe' }));
    expect(await outcome(a, await token({}, k2))).toBe('Unauthorized');
    published = [k1.jwk, k2.jwk];
    expect(await outcome(a, await token({}, k2))).toEqual(expect.objectContaining({ username: 'jane.doe' }));
    expect(keyFetches).toBeGreaterThanOrEqual(3);
    // a retired key stops working once the JWKS no longer has it
    published = [k2.jwk];
    const b = createJwtAuthenticator(c.jwt[0]!, { fetch: rotatingFetch, now, verifiedTokenCacheTtlMs: 0 });
    expect(await outcome(b, await token())).toBe('Unauthorized');
  });

  it('a discovery document naming another issuer is refused', async () => {
    const c = parseAuthenticationConfiguration(config);
    const a = createJwtAuthenticator(c.jwt[0]!, {
      fetch: async () => Response.json({ issuer: 'https://evil.test', jwks_uri: `${issuer}/keys` }),
      now,
    });
    expect(await outcome(a, await token())).toBe('Unauthorized');
  });

  it('the verified-token cache answers until the token expires, never after', async () => {
    const a = authn(60_000);
    const t = await token({ exp: sec() + 5 });
    expect(await outcome(a, t)).toEqual(expect.objectContaining({ username: 'jane.doe' }));
    const before = fetches;
    expect(await outcome(a, t)).toEqual(expect.objectContaining({ username: 'jane.doe' }));
    expect(fetches).toBe(before);
    clock += 6_000;
    try {
      expect(await outcome(a, t)).toBe('Unauthorized');
    } finally {
      clock -= 6_000;
    }
  });

  it('a rejected token is never cached as a success', async () => {
    const a = authn(60_000);
    const bad = await token({ tenant: 'b' });
    expect(await outcome(a, bad)).toBe('Unauthorized');
    expect(await outcome(a, bad)).toBe('Unauthorized');
  });
});

describe('authentication config controller', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'authn-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reloads on change, keeps the last good configuration on a broken edit, and sets the gauge', async () => {
    const file = join(dir, 'authn.yaml');
    writeFileSync(file, config);
    const logs: string[] = [];
    const c = createAuthenticationConfigController({
      path: file,
      jwt: { fetch: fakeFetch, now, verifiedTokenCacheTtlMs: 0 },
      log: (m) => logs.push(m),
      now,
    });
    const t = await token();
    expect(await outcome(c as never, t)).toEqual(expect.objectContaining({ username: 'jane.doe' }));
    expect(c.check()).toBe('unchanged');
    expect(c.metrics.lastReloadTimestamp.get({ status: 'success' })).toBeUndefined();

    writeFileSync(
      file,
      config.replace('claims.given + "." + claims.family', 'claims.family + "/" + claims.given'),
    );
    expect(c.check()).toBe('reloaded');
    expect(await outcome(c as never, t)).toEqual(expect.objectContaining({ username: 'doe/jane' }));
    expect(c.metrics.lastReloadTimestamp.name).toBe(
      'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds',
    );
    expect(c.metrics.lastReloadTimestamp.get({ status: 'success' })).toBe(clock / 1000);

    writeFileSync(file, `${config}  - broken: [`);
    clock += 1000;
    expect(c.check()).toBe('failed');
    expect(logs.at(-1)).toContain(`keeping the last good configuration: ${file}`);
    expect(c.metrics.lastReloadTimestamp.get({ status: 'failure' })).toBe(clock / 1000);
    expect(c.metrics.reloads.get({ status: 'failure' })).toBe(1);
    expect(await outcome(c as never, t)).toEqual(expect.objectContaining({ username: 'doe/jane' }));
    // the same broken content is not retried
    expect(c.check()).toBe('unchanged');

    rmSync(file);
    expect(c.check()).toBe('failed');
    expect(await outcome(c as never, t)).toEqual(expect.objectContaining({ username: 'doe/jane' }));
  });

  it('a bad file at start is an error naming the file and field', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, config.replace(`url: ${issuer}`, 'url: http://x'));
    expect(() => createAuthenticationConfigController({ path: file })).toThrow(
      `${file}: jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https`,
    );
    expect(() => createAuthenticationConfigController({ path: join(dir, 'missing.yaml') })).toThrow(
      /missing\.yaml: cannot read/,
    );
  });
});
