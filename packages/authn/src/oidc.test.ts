import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOidcAuthenticator, oidcUsernamePrefix } from './oidc.js';

const issuer = 'https://issuer.test';
const now = Date.parse('2026-01-01T00:00:00Z');
const sec = Math.floor(now / 1000);
type Pair = { priv: CryptoKey; jwk: JWK };
let k1: Pair;
let k2: Pair;
let stranger: Pair;
let published: JWK[] = [];
let jwksFetches = 0;

async function pair(kid: string, alg = 'RS256'): Promise<Pair> {
  const p = await generateKeyPair(alg);
  return { priv: p.privateKey, jwk: { ...(await exportJWK(p.publicKey)), kid, alg, use: 'sig' } };
}

beforeAll(async () => {
  k1 = await pair('k1');
  k2 = await pair('k2');
  stranger = await pair('k1');
  published = [k1.jwk];
});

const fakeFetch = async (url: string) => {
  if (url === `${issuer}/.well-known/openid-configuration`) {
    return Response.json({ issuer, jwks_uri: `${issuer}/keys` });
  }
  if (url === `${issuer}/keys`) {
    jwksFetches++;
    return Response.json({ keys: published });
  }
  return new Response('not found', { status: 404 });
};

function authn(over: Partial<Parameters<typeof createOidcAuthenticator>[0]> = {}) {
  return createOidcAuthenticator({
    issuerUrl: issuer,
    clientId: 'orchard',
    groupsClaim: 'groups',
    groupsPrefix: 'oidc:',
    requiredClaims: { tenant: 'a' },
    fetch: fakeFetch,
    now: () => now,
    ...over,
  });
}

function token(key: Pair, over: Record<string, unknown> = {}, alg = 'RS256') {
  const claims = {
    iss: issuer,
    aud: 'orchard',
    sub: 'jane',
    groups: ['dev'],
    tenant: 'a',
    iat: sec,
    nbf: sec,
    exp: sec + 600,
    ...over,
  };
  return new SignJWT(claims).setProtectedHeader({ alg, kid: key.jwk.kid! }).sign(key.priv);
}

describe('OIDC flags authenticator', () => {
  const rows: [string, () => Promise<string>, string | 'none' | 'Unauthorized'][] = [
    ['valid', () => token(k1), `${issuer}#jane`],
    ['expired', () => token(k1, { exp: sec - 3600, nbf: sec - 7200, iat: sec - 7200 }), 'Unauthorized'],
    ['not yet valid', () => token(k1, { nbf: sec + 3600, exp: sec + 7200 }), 'Unauthorized'],
    ['wrong signature (same kid, other key)', () => token(stranger), 'Unauthorized'],
    ['wrong issuer is no opinion', () => token(k1, { iss: 'https://other.test' }), 'none'],
    ['wrong audience', () => token(k1, { aud: 'someone-else' }), 'Unauthorized'],
    ['required claim missing', () => token(k1, { tenant: 'b' }), 'Unauthorized'],
    ['malformed', async () => 'a.b.c', 'none'],
    ['unknown kid (revoked key)', () => token(k2), 'Unauthorized'],
    [
      'wrong algorithm (HS256)',
      () =>
        new SignJWT({ iss: issuer, aud: 'orchard', sub: 'x', exp: sec + 60 })
          .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
          .sign(new TextEncoder().encode('k'.repeat(32))),
      'Unauthorized',
    ],
    ['groups claim of the wrong type', () => token(k1, { groups: [1, 2] }), 'Unauthorized'],
  ];
  for (const [name, make, want] of rows) {
    it(name, async () => {
      const r = await authn()
        .authenticateToken(await make())
        .catch((e: Error & { code: string }) => e);
      if (want === 'Unauthorized') expect(r).toMatchObject({ code: 'Unauthorized', message: 'Unauthorized' });
      else if (want === 'none') expect(r).toEqual({ kind: 'none' });
      else
        expect(r).toEqual({
          kind: 'user',
          user: { username: want, groups: ['oidc:dev'] },
          audiences: ['orchard'],
        });
    });
  }

  it('key rotation: a new kid is fetched, the old key stops working once unpublished', async () => {
    published = [k1.jwk];
    const a = authn({ jwksCacheMaxAgeMs: 0 });
    expect((await a.authenticateToken(await token(k1))).kind).toBe('user');
    published = [k2.jwk];
    const before = jwksFetches;
    expect((await a.authenticateToken(await token(k2))).kind).toBe('user');
    expect(jwksFetches).toBeGreaterThan(before);
    await expect(a.authenticateToken(await token(k1))).rejects.toMatchObject({ code: 'Unauthorized' });
    published = [k1.jwk];
  });

  it('username prefix rules and https only', () => {
    expect(oidcUsernamePrefix(issuer, 'sub', undefined)).toBe(`${issuer}#`);
    expect(oidcUsernamePrefix(issuer, 'email', undefined)).toBe('');
    expect(oidcUsernamePrefix(issuer, 'sub', '-')).toBe('');
    expect(oidcUsernamePrefix(issuer, 'sub', 'oidc:')).toBe('oidc:');
    expect(() => authn({ issuerUrl: 'http://issuer.test' })).toThrow(
      /--oidc-issuer-url: Invalid value.*https/,
    );
    expect(() => authn({ issuerUrl: '::' })).toThrow(/--oidc-issuer-url/);
  });

  it('email claim requires email_verified not false', async () => {
    const a = authn({ usernameClaim: 'email' });
    expect(
      await a.authenticateToken(await token(k1, { email: 'j@x.io', email_verified: true })),
    ).toMatchObject({ user: { username: 'j@x.io' } });
    await expect(
      a.authenticateToken(await token(k1, { email: 'j@x.io', email_verified: false })),
    ).rejects.toMatchObject({ code: 'Unauthorized' });
  });
});
