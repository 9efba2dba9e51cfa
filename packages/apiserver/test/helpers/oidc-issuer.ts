import { type generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { GeneratedTls } from '@orchard/apiserver/tls';
import { type HttpsStub, startHttpsStub } from './https-stub.js';

/**
 * What the authentication suites share to stand in for an identity provider: a local HTTPS OIDC
 * issuer, RS256 JWTs signed with node:crypto, and kubeconfig files naming a user.
 */

/**
 * Starts an HTTPS OIDC issuer on 127.0.0.1 with the serving certificate of `tls`: discovery at
 * `/.well-known/openid-configuration`, the JWKS at `/jwks` (`keys()` read on every request, so a test
 * rotates keys by changing what it returns), 404 elsewhere. Its `url` is the `iss` of its tokens.
 */
export async function startOidcIssuer(tls: GeneratedTls, keys: () => readonly unknown[]): Promise<HttpsStub> {
  let url = '';
  const stub = await startHttpsStub(tls, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration')
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: keys() }));
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  url = stub.url;
  return stub;
}

/** The public half of an RSA key pair as a JWK an issuer publishes (RS256, `use: sig`). */
export function publicJwk(
  pair: ReturnType<typeof generateKeyPairSync>,
  kid: string,
): Record<string, unknown> {
  return { ...pair.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
}

/** Base64url without padding, as JWT segments are written. */
export const b64url = (v: string | Buffer): string => Buffer.from(v).toString('base64url');
/** A compact RS256 JWT of `claims` signed with node:crypto. */
export function signJwt(key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${b64url(sign('RSA-SHA256', Buffer.from(input), key))}`;
}

/** Writes a kubeconfig (mode 0600) of one cluster at `server` trusting `ca` and one user; returns `path`. */
export function writeKubeconfig(
  path: string,
  server: string,
  ca: string,
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = {},
): string {
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'c',
          cluster: { server, 'certificate-authority-data': Buffer.from(ca).toString('base64'), ...cluster },
        },
      ],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
    { mode: 0o600 },
  );
  return path;
}
