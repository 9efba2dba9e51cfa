import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import {
  type CertificateAuthority,
  generateCa,
  issueClientCert,
  webCryptoKeys,
} from '@orchard/apiserver/tls';
import { parseTokenFile } from '@orchard/authn';
import { createProtobufCodec } from '@orchard/codecs/protobuf';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthServer,
  flavors,
  startAuthServer,
  unauthorizedBody,
  unauthorizedStatus,
} from './helpers/auth-server.js';

// `@peculiar/x509` makes the certificates with odd validity windows; it signs through WebCrypto.
x509.cryptoProvider.set(webcrypto as never);

/**
 * Authentication wired into the real HTTPS server (doc 2 §5): client certificates, static tokens,
 * the authenticating proxy and anonymous, each as a table of (credential → user or 401). Every 401
 * is the same Status, whatever check failed — under both flavors.
 */
const tokens = parseTokenFile(
  [
    '# comment',
    'tok-jane,jane,uid-jane,"dev,ops"',
    'tok-bob,bob,,',
    'tok-system,system:kube-scheduler,,system:scheduling',
  ].join('\n'),
  'tokens.csv',
);

/** A client certificate of `ca` valid from `notBefore` to `notAfter` (ms since the epoch). */
async function issueClientCertValid(
  ca: CertificateAuthority,
  user: string,
  notBefore: number,
  notAfter: number,
) {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: `CN=${user}`,
    issuer: ca.certificate.subject,
    notBefore: new Date(notBefore),
    notAfter: new Date(notAfter),
    signingAlgorithm: alg,
    publicKey: keys.publicKey,
    signingKey: (await webCryptoKeys(ca)).privateKey,
    extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])],
  });
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey);
  const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END PRIVATE KEY-----\n`;
  return { cert: cert.toString('pem'), key };
}

describe.each(flavors)('client certificates, static tokens and anonymous ($name flavor)', (flavor) => {
  let api: AuthServer;
  let jane: { cert: string; key: string };
  let stranger: { cert: string; key: string };
  beforeAll(async () => {
    api = await startAuthServer({ flavor, authentication: { tokenFile: tokens } });
    jane = await issueClientCert(api.tls.ca, 'jane', ['devs', 'ops']);
    stranger = await issueClientCert(await generateCa('other-ca'), 'mallory', ['system:masters']);
  });
  afterAll(() => api.stop());

  it('names the methods that are on', () => {
    expect(api.server.authentication?.methods).toEqual(['x509', 'token-file', 'anonymous']);
  });

  it.each([
    [
      'admin certificate',
      () => ({ cert: api.tls.admin }),
      'admin',
      ['system:masters', 'system:authenticated'],
    ],
    ['issued certificate', () => ({ cert: jane }), 'jane', ['devs', 'ops', 'system:authenticated']],
    [
      'static token',
      () => ({ headers: { authorization: 'Bearer tok-jane' } }),
      'jane',
      ['dev', 'ops', 'system:authenticated'],
    ],
    [
      'static token, scheme case',
      () => ({ headers: { authorization: 'bearer tok-bob' } }),
      'bob',
      ['system:authenticated'],
    ],
  ])('%s → user', async (_name, options, username, groups) => {
    const r = await api.whoami(options());
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo.username).toBe(username);
    expect(r.json.status.userInfo.groups).toEqual(groups);
  });

  it('a static token keeps its uid', async () => {
    const r = await api.whoami({ headers: { authorization: 'Bearer tok-jane' } });
    expect(r.json.status.userInfo.uid).toBe('uid-jane');
  });

  it.each([
    ['unknown token', { authorization: 'Bearer nope' }],
    ['token of another line with a suffix', { authorization: 'Bearer tok-janeX' }],
    ['prefix of a token', { authorization: 'Bearer tok-jan' }],
    ['JWT-shaped garbage', { authorization: 'Bearer a.b.c' }],
    ['bootstrap-shaped token without the method', { authorization: 'Bearer abcdef.0123456789abcdef' }],
  ])('%s → 401 Status naming no check', async (_name, headers) => {
    const r = await api.whoami({ headers });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('a certificate of another CA is a failed credential: 401 everywhere, public paths included', async () => {
    const r = await api.whoami({ cert: stranger });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
    expect((await api.call('GET', '/version', { cert: stranger })).json).toEqual(unauthorizedStatus);
  });

  it.each([
    ['expired', -2 * 86_400_000, -86_400_000],
    ['not yet valid', 86_400_000, 2 * 86_400_000],
  ])('a certificate of the CA that is %s is 401', async (_name, from, to) => {
    const cert = await issueClientCertValid(api.tls.ca, 'jane', Date.now() + from, Date.now() + to);
    const r = await api.whoami({ cert });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('every 401 is byte for byte the same JSON Status, whatever the flavor and the failed check', async () => {
    const expired = await issueClientCertValid(api.tls.ca, 'jane', Date.now() - 2e8, Date.now() - 1e8);
    for (const o of [
      { headers: { authorization: 'Bearer nope' } },
      { cert: stranger },
      { cert: expired },
      {
        headers: { authorization: 'Bearer abcdef.0123456789abcdef' },
        path: '/api/v1/namespaces/default/pods',
      },
    ]) {
      const r = await api.call('POST', o.path ?? '/api', o);
      expect(r.status).toBe(401);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.text).toBe(unauthorizedBody);
    }
    // Negotiated as any other Status: Protobuf (the flavor's media type; kubectl asks for it) and YAML.
    const pb = createProtobufCodec(flavor);
    const bad = { authorization: 'Bearer nope' };
    const p = await api.call('GET', '/api', { headers: { ...bad, accept: flavor.protobufMediaType } });
    expect(p.status).toBe(401);
    expect(p.headers['content-type']).toBe(flavor.protobufMediaType);
    expect(pb.decode(p.bytes, { flavor })).toEqual(unauthorizedStatus);
    const y = await api.call('GET', '/api', { headers: { ...bad, accept: 'application/yaml' } });
    expect(y.text).toBe(
      'kind: Status\napiVersion: v1\nmetadata: {}\nstatus: Failure\nmessage: Unauthorized\nreason: Unauthorized\ncode: 401\n',
    );
  });

  it('SelfSubjectReview speaks Protobuf too (as kubectl auth whoami sends it)', async () => {
    const pb = createProtobufCodec(flavor);
    const ctx = { flavor };
    const mt = flavor.protobufMediaType;
    const authn = flavor.group('authentication');
    const r = await api.call('POST', `/apis/${authn}/v1/selfsubjectreviews`, {
      headers: { authorization: 'Bearer tok-jane', 'content-type': mt, accept: mt },
      body: Buffer.from(
        pb.encode({ apiVersion: `${authn}/v1`, kind: 'SelfSubjectReview', metadata: {} }, ctx),
      ),
    });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toBe(mt);
    expect(pb.decode(r.bytes, ctx)).toMatchObject({
      apiVersion: `${authn}/v1`,
      kind: 'SelfSubjectReview',
      status: {
        userInfo: { username: 'jane', uid: 'uid-jane', groups: ['dev', 'ops', 'system:authenticated'] },
      },
    });
  });

  it('a stranger certificate with a valid token: the token decides (first success wins)', async () => {
    const r = await api.whoami({ cert: stranger, headers: { authorization: 'Bearer tok-jane' } });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo.username).toBe('jane');
  });

  it('a valid certificate decides before an invalid token (first success wins)', async () => {
    const r = await api.whoami({ cert: jane, headers: { authorization: 'Bearer nope' } });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo.username).toBe('jane');
  });

  it('no credential: the anonymous user, which the default RBAC policy lets read only the public paths', async () => {
    for (const p of ['/version', '/livez', '/readyz', '/healthz'])
      expect((await api.call('GET', p)).status, p).toBe(200);
    // system:public-info-viewer names the health paths themselves, not their per-check sub-paths.
    for (const p of ['/healthz/ping', '/api/v1/namespaces', '/apis', '/api', '/openapi/v3', '/'])
      expect((await api.call('GET', p)).status, p).toBe(403);
    expect((await api.call('GET', '/api/v1/namespaces')).json.message).toBe(
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it('a non-Bearer Authorization header is no credential (anonymous)', async () => {
    expect((await api.call('GET', '/version', { headers: { authorization: 'Basic YTpi' } })).status).toBe(
      200,
    );
    expect((await api.call('GET', '/api', { headers: { authorization: 'Basic YTpi' } })).status).toBe(403);
  });

  it('a token is never anonymous: an invalid one is 401 even on a public path', async () => {
    const r = await api.call('GET', '/version', { headers: { authorization: 'Bearer nope' } });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(unauthorizedStatus);
  });

  it('hostile headers never crash the server', async () => {
    const hostile: Record<string, string | string[]>[] = [
      { authorization: `Bearer ${'x'.repeat(8000)}` },
      { authorization: `Bearer ${'x'.repeat(20000)}` },
      { 'x-filler': 'y'.repeat(70000) },
      { authorization: ['Bearer tok-jane', 'Bearer nope'] },
      { authorization: 'Bearer \u00e9\u00e8' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer  ' },
      { authorization: 'Bearer a b' },
      { 'x-remote-user': 'root', 'x-remote-group': 'system:masters' },
      { 'x-remote-extra-__proto__': 'x', 'x-remote-user': 'root' },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.' },
      { authorization: 'Bearer eyJ.eyJ.x' },
    ];
    for (const headers of hostile) {
      const r = await api.whoami({ headers: headers as Record<string, string> }).catch((e: Error) => ({
        status: -1,
        text: e.message,
      }));
      expect([201, 401, 400, 403, 431], JSON.stringify(headers).slice(0, 80)).toContain(r.status);
      if (r.status === 201) expect((r as { json: any }).json.status.userInfo.username).not.toBe('root');
    }
    expect((await api.whoami({ cert: api.tls.admin })).status).toBe(201);
  });
});

describe.each(flavors)('--anonymous-auth=false ($name flavor)', (flavor) => {
  let api: AuthServer;
  beforeAll(async () => {
    api = await startAuthServer({ flavor, authentication: { anonymous: { enabled: false } } });
  });
  afterAll(() => api.stop());

  it('is 401 everywhere without a credential, public paths included', async () => {
    expect(api.server.authentication?.methods).toEqual(['x509']);
    for (const p of ['/version', '/livez', '/api'])
      expect((await api.call('GET', p)).json, p).toEqual(unauthorizedStatus);
    expect((await api.call('GET', '/version', { cert: api.tls.admin })).status).toBe(200);
  });
});

describe.each(flavors)('anonymous limited to the configuration file’s paths ($name flavor)', (flavor) => {
  let api: AuthServer;
  beforeAll(async () => {
    // What `anonymous: {enabled: true, conditions: [{path: /livez}, {path: /readyz}]}` in the
    // AuthenticationConfiguration becomes.
    api = await startAuthServer({
      flavor,
      authentication: { anonymous: { enabled: true, paths: ['/livez', '/readyz'] } },
    });
  });
  afterAll(() => api.stop());

  it('no credential: anonymous on the listed paths only, 401 elsewhere (public paths included)', async () => {
    for (const p of ['/livez', '/readyz']) expect((await api.call('GET', p)).status, p).toBe(200);
    for (const p of ['/version', '/healthz', '/api', `/apis/${flavor.group('authentication')}/v1`])
      expect((await api.call('GET', p)).json, p).toEqual(unauthorizedStatus);
    expect((await api.whoami()).json).toEqual(unauthorizedStatus);
    expect((await api.call('GET', '/version', { cert: api.tls.admin })).status).toBe(200);
  });
});

describe.each(flavors)('authenticating proxy (--requestheader-*) ($name flavor)', (flavor) => {
  let api: AuthServer;
  let proxy: { cert: string; key: string };
  let otherProxy: { cert: string; key: string };
  let clientCaUser: { cert: string; key: string };
  beforeAll(async () => {
    const proxyCa = await generateCa('front-proxy-ca');
    proxy = await issueClientCert(proxyCa, 'front-proxy-client');
    otherProxy = await issueClientCert(proxyCa, 'someone-else');
    api = await startAuthServer({
      flavor,
      requestHeaderClientCa: proxyCa.cert,
      authentication: {
        requestHeader: {
          allowedNames: ['front-proxy-client'],
          usernameHeaders: ['X-Remote-User'],
          groupHeaders: ['X-Remote-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-'],
        },
      },
    });
    clientCaUser = await issueClientCert(api.tls.ca, 'carol', ['staff']);
  });
  afterAll(() => api.stop());

  it('trusts the identity headers of the allowed proxy certificate, extras percent-decoded', async () => {
    expect(api.server.authentication?.methods).toEqual(['requestheader', 'x509', 'anonymous']);
    const r = await api.whoami({
      cert: proxy,
      headers: {
        'x-remote-user': 'dave',
        'x-remote-group': ['g1', 'g2'],
        'x-remote-extra-acme.com%2Fproject': 'p1',
        'x-remote-extra-scopes': ['a', 'b'],
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({
      username: 'dave',
      groups: ['g1', 'g2', 'system:authenticated'],
      extra: { 'acme.com/project': ['p1'], scopes: ['a', 'b'] },
    });
  });

  it.each([
    ['proxy CN not allowed', () => ({ cert: otherProxy, headers: { 'x-remote-user': 'dave' } }), 401],
    // A proxy certificate is no user certificate: without headers it is nobody (anonymous, which
    // RBAC refuses: 403).
    ['proxy certificate without headers', () => ({ cert: proxy }), 403],
    ['headers without a certificate', () => ({ headers: { 'x-remote-user': 'dave' } }), 403],
  ])('%s → %i', async (_name, options, status) => {
    const r = await api.whoami(options());
    expect(r.status).toBe(status);
    if (status === 401) expect(r.json).toEqual(unauthorizedStatus);
    else expect(r.json.message).toContain('User "system:anonymous"');
  });

  it('headers sent with a client-CA certificate are ignored: the certificate decides', async () => {
    const r = await api.whoami({ cert: clientCaUser, headers: { 'x-remote-user': 'root' } });
    expect(r.json.status.userInfo.username).toBe('carol');
  });

  it('a __proto__ extra is an ordinary key and pollutes nothing', async () => {
    const r = await api.whoami({
      cert: proxy,
      headers: {
        'x-remote-user': 'dave',
        'x-remote-extra-__proto__': 'x',
        'x-remote-extra-constructor': 'y',
      },
    });
    expect(r.status).toBe(201);
    expect(Object.hasOwn(r.json.status.userInfo.extra, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
