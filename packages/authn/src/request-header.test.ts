import { describe, expect, it } from 'vitest';
import type { AuthenticationRequest, VerifiedClientCertificate } from './authenticator.js';
import { createRequestHeaderAuthenticator } from './request-header.js';
import { createX509Authenticator } from './x509.js';

const cert = (cn: string, verifiedBy: string[], o: string[] = []): VerifiedClientCertificate => ({
  commonName: cn,
  organizations: o,
  verifiedBy,
});
const req = (
  headers: AuthenticationRequest['headers'],
  c?: VerifiedClientCertificate,
): AuthenticationRequest => ({
  headers,
  path: '/api',
  clientCertificate: c,
});

describe('x509 client certificates', () => {
  const a = createX509Authenticator();
  it('CN is the user, each O a group', async () => {
    expect(await a.authenticate(req({}, cert('admin', ['client-ca'], ['system:masters', 'ops'])))).toEqual({
      kind: 'user',
      user: { username: 'admin', groups: ['system:masters', 'ops'] },
    });
  });
  it('no certificate, or one verified by another CA, or an empty CN: no opinion', async () => {
    expect((await a.authenticate(req({}))).kind).toBe('none');
    expect((await a.authenticate(req({}, cert('x', ['requestheader-client-ca'])))).kind).toBe('none');
    expect((await a.authenticate(req({}, cert('', ['client-ca'])))).kind).toBe('none');
  });
});

describe('authenticating proxy', () => {
  const a = createRequestHeaderAuthenticator({ allowedNames: ['front-proxy'] });
  const proxy = cert('front-proxy', ['requestheader-client-ca']);
  it('user, groups and percent-decoded extra', async () => {
    const r = await a.authenticate(
      req(
        {
          'x-remote-user': 'jane',
          'x-remote-group': ['g1', 'g2'],
          'x-remote-extra-acme.com%2fproject': 'p1',
          'x-remote-extra-__proto__': 'hostile',
        },
        proxy,
      ),
    );
    expect(r).toEqual({
      kind: 'user',
      user: {
        username: 'jane',
        groups: ['g1', 'g2'],
        extra: JSON.parse('{"acme.com/project":["p1"],"__proto__":["hostile"]}'),
      },
    });
    expect(Object.getPrototypeOf(r.kind === 'user' ? r.user.extra : null)).toBe(Object.prototype);
  });
  it('headers without the proxy certificate are ignored', async () => {
    expect(await a.authenticate(req({ 'x-remote-user': 'jane' }))).toEqual({ kind: 'none' });
    expect(
      await a.authenticate(req({ 'x-remote-user': 'jane' }, cert('front-proxy', ['client-ca']))),
    ).toEqual({
      kind: 'none',
    });
  });
  it('a proxy certificate with a CN not allowed is 401', async () => {
    await expect(
      a.authenticate(req({ 'x-remote-user': 'jane' }, cert('evil', ['requestheader-client-ca']))),
    ).rejects.toMatchObject({
      code: 'Unauthorized',
      message: 'Unauthorized',
    });
  });
  it('configurable header names', async () => {
    const b = createRequestHeaderAuthenticator({
      usernameHeaders: ['X-User'],
      groupHeaders: ['X-Groups'],
      extraHeaderPrefixes: [],
    });
    expect(
      await b.authenticate(req({ 'x-user': 'u', 'x-groups': 'g', 'x-remote-user': 'ignored' }, proxy)),
    ).toEqual({
      kind: 'user',
      user: { username: 'u', groups: ['g'] },
    });
  });
});
