import { exportPKCS8, generateKeyPair, importPKCS8, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createServiceAccountTokenAuthenticator,
  createServiceAccountTokenSigner,
  type PinnedKey,
} from './service-account.js';

const issuer = 'https://orchard.local';
const now = Date.parse('2026-01-01T00:00:00Z');
let rsa: PinnedKey & { priv: PinnedKey['key'] };
let ec: PinnedKey & { priv: PinnedKey['key'] };
let other: PinnedKey & { priv: PinnedKey['key'] };
const live = new Map<string, string>([['default/builder', 'uid-1']]);
const pods = new Map<string, string>([['default/p1', 'pod-uid']]);

beforeAll(async () => {
  const r = await generateKeyPair('RS256', { extractable: true });
  rsa = { key: r.publicKey, priv: r.privateKey, alg: 'RS256' };
  const e = await generateKeyPair('ES256');
  ec = { key: e.publicKey, priv: e.privateKey, alg: 'ES256' };
  const o = await generateKeyPair('RS256');
  other = { key: o.publicKey, priv: o.privateKey, alg: 'RS256' };
});

function authenticator() {
  return createServiceAccountTokenAuthenticator({
    keys: [rsa, ec],
    issuers: [issuer],
    audiences: [issuer, 'vault'],
    now: () => now,
    lookup: {
      getServiceAccountUid: async (ns, n) => live.get(`${ns}/${n}`),
      getBoundObjectUid: async (_k, ns, n) => pods.get(`${ns}/${n}`),
    },
  });
}

async function sign(
  key: PinnedKey & { priv: PinnedKey['key'] },
  over: { iss?: string; aud?: string[]; exp?: number; nbf?: number; uid?: string; pod?: boolean } = {},
) {
  const signer = createServiceAccountTokenSigner({
    key: { key: key.priv, alg: key.alg },
    issuer: over.iss ?? issuer,
    now: () => over.nbf ?? now,
  });
  const { token } = await signer.sign({
    namespace: 'default',
    name: 'builder',
    uid: over.uid ?? 'uid-1',
    audiences: over.aud ?? [issuer],
    expirationSeconds: over.exp ?? 3600,
    ...(over.pod ? { boundObject: { kind: 'Pod' as const, name: 'p1', uid: 'pod-uid' } } : {}),
  });
  return token;
}

describe('service-account tokens', () => {
  const cases: [string, () => Promise<string>, 'user' | 'none' | 'Unauthorized'][] = [
    ['valid RSA', () => sign(rsa), 'user'],
    ['valid ECDSA', () => sign(ec), 'user'],
    ['valid, bound to a live pod', () => sign(rsa, { pod: true }), 'user'],
    ['expired', () => sign(rsa, { nbf: now - 7200_000, exp: 60 }), 'Unauthorized'],
    ['not yet valid', () => sign(rsa, { nbf: now + 3600_000 }), 'Unauthorized'],
    ['wrong signature (another key)', () => sign(other), 'Unauthorized'],
    [
      'wrong issuer is no opinion (another method may own it)',
      () => sign(rsa, { iss: 'https://evil' }),
      'none',
    ],
    ['wrong audience', () => sign(rsa, { aud: ['other'] }), 'Unauthorized'],
    ['revoked (account recreated: uid differs)', () => sign(rsa, { uid: 'uid-old' }), 'Unauthorized'],
    ['malformed', async () => 'not.a.jwt', 'none'],
    ['malformed (two parts)', async () => 'abc.def', 'none'],
    [
      'wrong algorithm (HS256 keyed with the public key text)',
      async () =>
        new SignJWT({
          'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: 'uid-1' } },
        })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(issuer)
          .setAudience(issuer)
          .setSubject('system:serviceaccount:default:builder')
          .setExpirationTime(Math.floor(now / 1000) + 60)
          .sign(new TextEncoder().encode('public-key-as-hmac-secret')),
      'Unauthorized',
    ],
    [
      'wrong algorithm (RS384 with a pinned RS256 key)',
      async () =>
        new SignJWT({
          'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid: 'uid-1' } },
        })
          .setProtectedHeader({ alg: 'RS384' })
          .setIssuer(issuer)
          .setAudience(issuer)
          .setSubject('system:serviceaccount:default:builder')
          .setExpirationTime(Math.floor(now / 1000) + 60)
          .sign(await importPKCS8(await exportPKCS8(rsa.priv), 'RS384')),
      'Unauthorized',
    ],
    [
      'alg none',
      async () => `${btoa('{"alg":"none"}')}.${btoa(JSON.stringify({ iss: issuer }))}.`,
      'Unauthorized',
    ],
  ];
  for (const [name, make, want] of cases) {
    it(name, async () => {
      const r = await authenticator()
        .authenticateToken(await make())
        .catch((e: Error & { code: string }) => e);
      if (want === 'Unauthorized') expect(r).toMatchObject({ code: 'Unauthorized', message: 'Unauthorized' });
      else if (want === 'none') expect(r).toEqual({ kind: 'none' });
      else
        expect(r).toMatchObject({
          kind: 'user',
          user: {
            username: 'system:serviceaccount:default:builder',
            uid: 'uid-1',
            groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
          },
          audiences: [issuer],
        });
    });
  }

  it('a bound pod that is deleted revokes the token', async () => {
    const token = await sign(rsa, { pod: true });
    pods.delete('default/p1');
    try {
      await expect(authenticator().authenticateToken(token)).rejects.toMatchObject({ code: 'Unauthorized' });
    } finally {
      pods.set('default/p1', 'pod-uid');
    }
  });

  it('a deleted account revokes the token', async () => {
    const token = await sign(rsa);
    live.delete('default/builder');
    try {
      await expect(authenticator().authenticateToken(token)).rejects.toMatchObject({ code: 'Unauthorized' });
    } finally {
      live.set('default/builder', 'uid-1');
    }
  });
});
