import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { identityDomain, parseServiceAccountSigningKey } from '@orchard/apiserver';
import { parseTokenFile } from '@orchard/authn';
import { createProtobufCodec } from '@orchard/codecs/protobuf';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthServer, flavors, startAuthServer, unauthorizedStatus } from './helpers/auth-server.js';

/**
 * Service-account tokens end to end (doc 2 §5.2): the `default` ServiceAccount controller, the
 * TokenRequest sub-resource, `--service-account-lookup`, TokenReview with audiences, and a table of
 * forged and broken tokens against the real HTTPS server, under both flavors (group
 * `authentication.<domain>`, the private claim and extras in the identity domain). Lookup off and a
 * server without a signing key are in service-account-options.e2e.test.ts.
 */
const issuer = 'https://issuer.test';
const pem = (k: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  k.export({ type: 'pkcs8', format: 'pem' }) as string;
const signingPem = pem(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey);
const signingKey = parseServiceAccountSigningKey(signingPem, 'sa.key');
const otherPem = pem(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey);
const rsaPem = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  // Bounded (about 20 s on a loaded machine), never a timing assertion.
  for (let i = 0; i < 800; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(flavors)('service-account tokens ($name flavor)', (flavor) => {
  const authn = flavor.group('authentication');
  const idDomain = identityDomain(flavor);
  let api: AuthServer;
  const admin = () => ({ cert: api.tls.admin });
  const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
  const requestToken = (ns: string, name: string, spec: Record<string, unknown> = {}) =>
    api.call('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, {
      ...admin(),
      body: { apiVersion: `${authn}/v1`, kind: 'TokenRequest', spec },
    });
  const review = (token: string, audiences?: string[]) =>
    api.call('POST', `/apis/${authn}/v1/tokenreviews`, {
      ...admin(),
      body: {
        apiVersion: `${authn}/v1`,
        kind: 'TokenReview',
        spec: { token, ...(audiences ? { audiences } : {}) },
      },
    });
  const saUid = async (ns: string, name: string) =>
    (await api.call('GET', `/api/v1/namespaces/${ns}/serviceaccounts/${name}`, admin())).json?.metadata?.uid;

  beforeAll(async () => {
    api = await startAuthServer({
      flavor,
      authentication: {
        serviceAccounts: { keys: [], signingKey, issuers: [issuer] },
        tokenFile: parseTokenFile('tok-jane,jane,,dev', 't.csv'),
      },
    });
    await until(async () => (await saUid('default', 'default')) !== undefined, 'the default ServiceAccount');
  });
  afterAll(() => api.stop());

  it('every namespace gets a default ServiceAccount, also one created later', async () => {
    for (const ns of [flavor.systemNamespace, flavor.publicNamespace, flavor.nodeLeaseNamespace])
      await until(async () => (await saUid(ns, 'default')) !== undefined, `default in ${ns}`);
    await api.call('POST', '/api/v1/namespaces', {
      ...admin(),
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'later' } },
    });
    await until(async () => (await saUid('later', 'default')) !== undefined, 'default in a new namespace');
  });

  it('TokenRequest signs a token that authenticates as the account', async () => {
    const r = await requestToken('default', 'default');
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: `${authn}/v1`,
      metadata: { name: 'default', namespace: 'default' },
      spec: { audiences: [issuer], expirationSeconds: 3600, boundObjectRef: null },
    });
    const exp = Date.parse(r.json.status.expirationTimestamp);
    expect(Math.abs(exp - (Date.now() + 3600_000))).toBeLessThan(120_000);
    const who = await api.whoami(bearer(r.json.status.token));
    expect(who.status).toBe(201);
    expect(who.json.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:default:default',
      uid: await saUid('default', 'default'),
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(who.json.status.userInfo.extra[`authentication.${idDomain}/credential-id`][0]).toMatch(/^JTI=/);
  });

  it.each([
    [
      { expirationSeconds: 599 },
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ],
    [{ expirationSeconds: 2 ** 32 + 1 }, 'may not specify a duration larger than 2^32 seconds'],
    [{ expirationSeconds: 'soon' }, 'spec.expirationSeconds'],
    [{ audiences: 'x' }, 'spec.audiences'],
    [
      { boundObjectRef: { kind: 'ConfigMap', name: 'c' } },
      'spec.boundObjectRef.kind: Unsupported value: "ConfigMap"',
    ],
    [{ boundObjectRef: { kind: 'Secret' } }, 'spec.boundObjectRef.name: Required value'],
  ])('invalid spec %j → 422', async (spec, message) => {
    const r = await requestToken('default', 'default', spec);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ reason: 'Invalid' });
    expect(r.json.message).toContain(message);
  });

  it('600 seconds is the shortest lifetime; a missing account is 404', async () => {
    const r = await requestToken('default', 'default', { expirationSeconds: 600 });
    expect(r.json.spec.expirationSeconds).toBe(600);
    const missing = await requestToken('default', 'nope');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('serviceaccounts "nope" not found');
  });

  it('audiences: a token for another audience is no API credential, but TokenReview answers for it', async () => {
    const r = await requestToken('default', 'default', { audiences: ['vault'] });
    const token = r.json.status.token;
    expect((await api.whoami(bearer(token))).json).toEqual(unauthorizedStatus);
    const ok = await review(token, ['vault', 'other']);
    expect(ok.status).toBe(201);
    expect(ok.json.status).toMatchObject({
      authenticated: true,
      audiences: ['vault'],
      user: { username: 'system:serviceaccount:default:default' },
    });
    const api_ = await review(token);
    expect(api_.json.status.authenticated).toBeUndefined();
    expect(api_.json.status.error).toBeTruthy();
  });

  it('TokenReview: API audiences by default, static tokens too, and a bad token is unauthenticated', async () => {
    const r = await requestToken('default', 'default');
    const sa = await review(r.json.status.token);
    expect(sa.json.status).toMatchObject({ authenticated: true, audiences: [issuer] });
    const st = await review('tok-jane');
    expect(st.json.status).toMatchObject({
      authenticated: true,
      user: { username: 'jane', groups: ['dev', 'system:authenticated'] },
      audiences: [issuer],
    });
    const stOther = await review('tok-jane', ['vault']);
    expect(stOther.json.status.authenticated).toBeUndefined();
    const bad = await review('nope');
    expect(bad.status).toBe(201);
    expect(bad.json.status.authenticated).toBeUndefined();
    const empty = await review('');
    expect(empty.status).toBe(422);
  });

  it('TokenReview and TokenRequest speak Protobuf too', async () => {
    const pb = createProtobufCodec(flavor);
    const ctx = { flavor };
    const mt = flavor.protobufMediaType;
    const tr = await api.call('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
      ...admin(),
      headers: { 'content-type': mt, accept: mt },
      body: Buffer.from(
        pb.encode(
          {
            apiVersion: `${authn}/v1`,
            kind: 'TokenRequest',
            metadata: {},
            spec: { expirationSeconds: 900 },
          },
          ctx,
        ),
      ),
    });
    expect(tr.status).toBe(201);
    expect(tr.headers['content-type']).toBe(mt);
    const issued = pb.decode(tr.bytes, ctx) as {
      spec: { expirationSeconds: number };
      status: { token: string };
    };
    expect(issued.spec.expirationSeconds).toBe(900);
    const rv = await api.call('POST', `/apis/${authn}/v1/tokenreviews`, {
      ...admin(),
      headers: { 'content-type': mt, accept: mt },
      body: Buffer.from(
        pb.encode(
          {
            apiVersion: `${authn}/v1`,
            kind: 'TokenReview',
            metadata: {},
            spec: { token: issued.status.token },
          },
          ctx,
        ),
      ),
    });
    expect(rv.status).toBe(201);
    expect(pb.decode(rv.bytes, ctx)).toMatchObject({
      kind: 'TokenReview',
      status: { authenticated: true, user: { username: 'system:serviceaccount:default:default' } },
    });
  });

  it('a token bound to a Secret: uid checked at issue, dead once the Secret is gone', async () => {
    const s = await api.call('POST', '/api/v1/namespaces/default/secrets', {
      ...admin(),
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bind-me' } },
    });
    const uid = s.json.metadata.uid;
    const wrong = await requestToken('default', 'default', {
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bind-me', uid: 'not-the-uid' },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.json.message).toContain('does not match the UID in record');
    const missing = await requestToken('default', 'default', {
      boundObjectRef: { kind: 'Pod', name: 'no-pod' },
    });
    expect(missing.status).toBe(404);
    const r = await requestToken('default', 'default', {
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'bind-me', uid },
    });
    expect(r.json.spec.boundObjectRef).toEqual({ kind: 'Secret', apiVersion: 'v1', name: 'bind-me', uid });
    const token = r.json.status.token;
    expect((await api.whoami(bearer(token))).status).toBe(201);
    await api.call('DELETE', '/api/v1/namespaces/default/secrets/bind-me', admin());
    expect((await api.whoami(bearer(token))).json).toEqual(unauthorizedStatus);
  });

  it('a token bound to a Pod carries the pod in extra', async () => {
    const p = await api.call('POST', '/api/v1/namespaces/default/pods', {
      ...admin(),
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p1' },
        spec: { containers: [{ name: 'c', image: 'i' }] },
      },
    });
    expect(p.status).toBe(201);
    const r = await requestToken('default', 'default', { boundObjectRef: { kind: 'Pod', name: 'p1' } });
    const who = await api.whoami(bearer(r.json.status.token));
    expect(who.json.status.userInfo.extra[`authentication.${idDomain}/pod-name`]).toEqual(['p1']);
    expect(who.json.status.userInfo.extra[`authentication.${idDomain}/pod-uid`]).toEqual([
      p.json.metadata.uid,
    ]);
  });

  it('--service-account-lookup: a deleted account’s token stops working, also after the account is recreated', async () => {
    await api.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
      ...admin(),
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    });
    const token = (await requestToken('default', 'robot')).json.status.token;
    expect((await api.whoami(bearer(token))).status).toBe(201);
    await api.call('DELETE', '/api/v1/namespaces/default/serviceaccounts/robot', admin());
    expect((await api.whoami(bearer(token))).json).toEqual(unauthorizedStatus);
    await api.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
      ...admin(),
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    });
    expect((await api.whoami(bearer(token))).json).toEqual(unauthorizedStatus);
  });

  it('the controller recreates a deleted default ServiceAccount with a new uid', async () => {
    const before = await saUid('default', 'default');
    await api.call('DELETE', '/api/v1/namespaces/default/serviceaccounts/default', admin());
    await until(async () => {
      const now = await saUid('default', 'default');
      return now !== undefined && now !== before;
    }, 'the default ServiceAccount again');
  });

  describe('forged and broken tokens (each 401 with the same Status)', () => {
    const sign = async (
      o: {
        key?: string;
        alg?: string;
        iss?: string;
        aud?: string[];
        exp?: number;
        nbf?: number;
        sub?: string;
        claims?: Record<string, unknown>;
        claimsDomain?: string;
      },
      uid: string,
    ) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({
        [o.claimsDomain ?? idDomain]: o.claims ?? {
          namespace: 'default',
          serviceaccount: { name: 'default', uid },
        },
      })
        .setProtectedHeader({ alg: o.alg ?? 'ES256' })
        .setIssuer(o.iss ?? issuer)
        .setSubject(o.sub ?? 'system:serviceaccount:default:default')
        .setAudience(o.aud ?? [issuer])
        .setIssuedAt(now)
        .setNotBefore(o.nbf ?? now)
        .setExpirationTime(o.exp ?? now + 600);
      return jwt.sign(createPrivateKey(o.key ?? signingPem));
    };
    const now = () => Math.floor(Date.now() / 1000);

    it('a token we forge correctly works (the table below differs in one thing each)', async () => {
      const uid = (await saUid('default', 'default')) as string;
      expect((await api.whoami(bearer(await sign({}, uid)))).status).toBe(201);
    });

    it.each([
      ['expired', () => ({ exp: now() - 3600, nbf: now() - 7200 })],
      ['not yet valid', () => ({ nbf: now() + 3600, exp: now() + 7200 })],
      ['wrong signature (another key)', () => ({ key: otherPem })],
      ['wrong algorithm (RS256 key where ES256 is pinned)', () => ({ key: rsaPem, alg: 'RS256' })],
      ['wrong issuer', () => ({ iss: 'https://evil.test' })],
      ['wrong audience', () => ({ aud: ['someone-else'] })],
      ['subject not matching the claims', () => ({ sub: 'system:serviceaccount:default:admin' })],
      ['missing private claims', () => ({ claims: {} })],
      [
        'private claims under the other flavor’s domain',
        () => ({ claimsDomain: identityDomain(flavors.find((f) => f !== flavor)!) }),
      ],
      [
        'stale uid (deleted and recreated account)',
        () => ({ claims: { namespace: 'default', serviceaccount: { name: 'default', uid: 'old' } } }),
      ],
    ])('%s', async (_name, opts) => {
      const uid = (await saUid('default', 'default')) as string;
      const r = await api.whoami(bearer(await sign(opts(), uid)));
      expect(r.status).toBe(401);
      expect(r.json).toEqual(unauthorizedStatus);
    });

    it.each([
      [
        'alg none',
        async () => {
          const uid = await saUid('default', 'default');
          const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
          return `${enc({ alg: 'none' })}.${enc({ iss: issuer, sub: 'system:serviceaccount:default:default', aud: [issuer], exp: now() + 600, [idDomain]: { namespace: 'default', serviceaccount: { name: 'default', uid } } })}.`;
        },
      ],
      [
        'HS256 with the public key as secret',
        async () => {
          const pub = createPublicKey(signingPem).export({ type: 'spki', format: 'pem' }) as string;
          return new SignJWT({})
            .setProtectedHeader({ alg: 'HS256' })
            .setIssuer(issuer)
            .setAudience(issuer)
            .setExpirationTime('10m')
            .sign(new TextEncoder().encode(pub));
        },
      ],
      ['malformed (three dots of garbage)', async () => 'xx.yy.zz'],
      [
        'truncated signature',
        async () => {
          const uid = (await saUid('default', 'default')) as string;
          return (await sign({}, uid)).slice(0, -10);
        },
      ],
    ])('%s', async (_name, make) => {
      const r = await api.whoami(bearer(await make()));
      expect(r.status).toBe(401);
      expect(r.json).toEqual(unauthorizedStatus);
    });
  });

  it('discovery lists tokenreviews and serviceaccounts/token', async () => {
    const core = await api.call('GET', '/api/v1', admin());
    expect(core.json.resources).toContainEqual(
      expect.objectContaining({
        name: 'serviceaccounts/token',
        kind: 'TokenRequest',
        group: authn,
        version: 'v1',
        verbs: ['create'],
      }),
    );
    const group = await api.call('GET', `/apis/${authn}/v1`, admin());
    expect(group.json.resources.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['selfsubjectreviews', 'tokenreviews']),
    );
  });
});
