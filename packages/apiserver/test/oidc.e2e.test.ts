import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { fetchWithCa } from '@orchard/apiserver';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthServer,
  flavors,
  sharedTls,
  startAuthServer,
  unauthorizedStatus,
} from './helpers/auth-server.js';
import type { HttpsStub } from './helpers/https-stub.js';
import { publicJwk as jwk, startOidcIssuer } from './helpers/oidc-issuer.js';

/**
 * The OIDC flags (`--oidc-*`, doc 2 §5.2) against the real HTTPS server under both flavors: a local
 * HTTPS issuer serving discovery and JWKS, tokens signed with jose, a table of valid and broken
 * tokens (each 401 the same Status), a key rotation, and TokenReview of an OIDC token.
 */
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const k1 = rsa();
const k2 = rsa();
const impostor = rsa(); // signs with kid k1 but is not k1
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

describe.each(flavors)('OIDC flags authenticator through the real server ($name flavor)', (flavor) => {
  let api: AuthServer;
  let issuerServer: HttpsStub;
  let issuer: string;
  let published = [jwk(k1, 'k1')];
  const authn = flavor.group('authentication');
  const now = () => Math.floor(Date.now() / 1000);
  const sign = (
    claims: Record<string, unknown>,
    key: KeyObject | Uint8Array = k1.privateKey,
    kid = 'k1',
    alg = 'RS256',
  ) =>
    new SignJWT({
      iss: issuer,
      aud: 'orchard',
      sub: 'jane',
      groups: ['dev'],
      tenant: 'a',
      iat: now(),
      nbf: now() - 5,
      exp: now() + 600,
      ...claims,
    })
      .setProtectedHeader({ alg, kid })
      .sign(key);
  const whoami = (token: string) => api.whoami({ headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    const tls = await sharedTls();
    issuerServer = await startOidcIssuer(tls, () => published);
    issuer = issuerServer.url;
    api = await startAuthServer({
      flavor,
      authentication: {
        oidc: {
          issuerUrl: issuer,
          clientId: 'orchard',
          groupsClaim: 'groups',
          groupsPrefix: 'oidc:',
          requiredClaims: { tenant: 'a' },
          signingAlgs: ['RS256'],
          fetch: fetchWithCa(tls.ca.cert),
          // A JWKS cache age of 0 lets the rotation show without waiting out jose's 30 s cooldown.
          jwksCacheMaxAgeMs: 0,
        },
      },
    });
  });
  afterAll(async () => {
    await api?.stop();
    await issuerServer?.stop();
  });

  it('a valid token is <issuer>#<sub> with the prefixed groups', async () => {
    expect(api.server.authentication?.methods).toContain('oidc');
    const r = await whoami(await sign({}));
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({
      username: `${issuer}#jane`,
      groups: ['oidc:dev', 'system:authenticated'],
    });
  });

  it.each([
    ['expired', () => sign({ exp: now() - 3600, nbf: now() - 7200, iat: now() - 7200 })],
    ['not yet valid', () => sign({ nbf: now() + 3600, exp: now() + 7200 })],
    ['wrong signature (same kid, another key)', () => sign({}, impostor.privateKey)],
    ['wrong issuer', () => sign({ iss: 'https://elsewhere.test' })],
    ['wrong audience', () => sign({ aud: 'someone-else' })],
    ['required claim with another value', () => sign({ tenant: 'b' })],
    ['unknown kid', () => sign({}, k2.privateKey, 'k2')],
    ['wrong algorithm (ES256 where RS256 is required)', () => sign({}, ec.privateKey, 'k1', 'ES256')],
    [
      'wrong algorithm (HS256 keyed with a guessable secret)',
      () => sign({}, new TextEncoder().encode('k'.repeat(32)), 'k1', 'HS256'),
    ],
    [
      'alg none',
      async () =>
        `${Buffer.from('{"alg":"none","kid":"k1"}').toString('base64url')}.${Buffer.from(
          JSON.stringify({ iss: issuer, aud: 'orchard', sub: 'jane', tenant: 'a', exp: now() + 60 }),
        ).toString('base64url')}.`,
    ],
    ['malformed', async () => 'a.b.c'],
    ['groups claim of the wrong type', () => sign({ groups: [1, 2] })],
  ])('%s → 401 Status naming no check', async (_name, make) => {
    const r = await whoami(await make());
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('key rotation: a token of the new key works, the unpublished old key is revoked', async () => {
    published = [jwk(k2, 'k2')];
    try {
      const rotated = await whoami(await sign({ sub: 'after' }, k2.privateKey, 'k2'));
      expect(rotated.json.status.userInfo.username).toBe(`${issuer}#after`);
      const old = await whoami(await sign({}));
      expect(old.status).toBe(401);
      expect(old.json).toEqual(unauthorizedStatus);
    } finally {
      published = [jwk(k1, 'k1')];
    }
  });

  it('TokenReview answers for an OIDC token and refuses a broken one', async () => {
    const review = (token: string) =>
      api.call('POST', `/apis/${authn}/v1/tokenreviews`, {
        cert: api.tls.admin,
        body: { apiVersion: `${authn}/v1`, kind: 'TokenReview', spec: { token } },
      });
    const ok = await review(await sign({}));
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({
      apiVersion: `${authn}/v1`,
      kind: 'TokenReview',
      status: {
        authenticated: true,
        user: { username: `${issuer}#jane`, groups: ['oidc:dev', 'system:authenticated'] },
      },
    });
    const bad = await review(await sign({ aud: 'someone-else' }));
    expect(bad.status).toBe(201);
    expect(bad.json.status.authenticated).toBeUndefined();
    expect(bad.json.status.error).toBeTruthy();
  });
});
