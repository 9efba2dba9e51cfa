/**
 * Authentication cost per request, as a share of one GET in the same run (issue 13: a cached JWT must
 * stay ≤ 10 % of a GET). Each method runs through the union the server uses (bearer-token wrapper,
 * `system:authenticated`), in-process: client certificate (attributes the TLS layer verified), static
 * token (1,000-line file), structured JWT (RS256, CEL username from two claims, a user validation rule)
 * uncached and from the verified-token cache, and the anonymous fall-through. The GET baseline is the
 * reference server (memory store, plain HTTP on loopback, keep-alive, no authentication) answering
 * GET of one ConfigMap, measured by a client in the same process.
 *
 *   pnpm bench authn      (or: node --import tsx packages/authn/bench/authn.bench.ts)
 *
 * The server is imported by relative path: a benchmark only, never part of the package.
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createApiServer } from '../../apiserver/src/index.js';
import {
  type AuthenticationRequest,
  createBearerTokenAuthenticator,
  createJwtAuthenticator,
  createTokenFileAuthenticator,
  createUnionAuthenticator,
  createX509Authenticator,
  parseAuthenticationConfiguration,
  parseTokenFile,
  type TokenAuthenticator,
  type UnionAuthenticator,
} from '../src/index.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);

/** Mean microseconds per call of `f` after a warm-up of a tenth of the iterations. */
async function measure(f: () => Promise<unknown>, n = iterations): Promise<number> {
  for (let i = 0; i < Math.max(200, n / 10); i++) await f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - t0) * 1000) / n;
}

// --- the GET baseline -------------------------------------------------------------------------
const api = createApiServer({ flavor: (await import('@orchard/meta')).kubernetesFlavor });
const { url } = await api.listen(0, '127.0.0.1');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const send = (method: string, path: string, body?: string) =>
  new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, url),
      { method, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
await send(
  'POST',
  '/api/v1/namespaces/default/configmaps',
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { a: 'b' } }),
);
const getPath = '/api/v1/namespaces/default/configmaps/bench';
if ((await send('GET', getPath)) !== 200) throw new Error('GET baseline did not answer 200');
const getUs = await measure(() => send('GET', getPath), Math.min(iterations, 5_000));
agent.destroy();
await api.close();

// --- the methods ------------------------------------------------------------------------------
const csv = Array.from(
  { length: 1000 },
  (_, i) => `token-${i.toString(16).padStart(32, '0')},user-${i},uid-${i},"g1,g2"`,
).join('\n');
const staticTokens = createTokenFileAuthenticator(parseTokenFile(csv, 'tokens.csv'));
const issuer = 'https://issuer.bench';
const { privateKey, publicKey } = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
const fakeFetch = async (u: string) =>
  u.endsWith('/.well-known/openid-configuration')
    ? Response.json({ issuer, jwks_uri: `${issuer}/keys` })
    : Response.json({ keys: [jwk] });
const config = parseAuthenticationConfiguration(`apiVersion: apiserver.config.orch.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuer}
    audiences: [orchard]
  claimMappings:
    username:
      expression: 'claims.given + "." + claims.family'
    groups:
      claim: groups
      prefix: "oidc:"
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
`);
const jwtUncached = createJwtAuthenticator(config.jwt[0]!, { fetch: fakeFetch, verifiedTokenCacheTtlMs: 0 });
const jwtCached = createJwtAuthenticator(config.jwt[0]!, { fetch: fakeFetch });
const now = Math.floor(Date.now() / 1000);
const jwt = await new SignJWT({
  iss: issuer,
  aud: 'orchard',
  sub: 's',
  given: 'jane',
  family: 'doe',
  groups: ['dev'],
  exp: now + 3600,
})
  .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
  .sign(privateKey);

const union = (tokens: TokenAuthenticator[]): UnionAuthenticator =>
  createUnionAuthenticator({
    authenticators: [createX509Authenticator(), createBearerTokenAuthenticator(tokens)],
    anonymous: { enabled: true },
  });
const bearer = (t: string): AuthenticationRequest => ({
  headers: { authorization: `Bearer ${t}` },
  path: getPath,
});
const cases: [string, UnionAuthenticator, AuthenticationRequest][] = [
  ['anonymous (no credential)', union([staticTokens]), { headers: {}, path: getPath }],
  [
    'client certificate',
    union([staticTokens]),
    {
      headers: {},
      path: getPath,
      clientCertificate: { commonName: 'jane', organizations: ['dev'], verifiedBy: ['client-ca'] },
    },
  ],
  ['static token (1,000 entries)', union([staticTokens]), bearer('token-000000000000000000000000000001f4')],
  ['JWT, uncached (RS256 + CEL)', union([jwtUncached]), bearer(jwt)],
  ['JWT, verified-token cache', union([jwtCached]), bearer(jwt)],
];

console.log(
  `GET /api/v1/namespaces/default/configmaps/bench (plain HTTP, keep-alive): ${getUs.toFixed(1)} µs`,
);
console.log('method                              µs/request   share of the GET');
for (const [name, u, req] of cases) {
  const user = (await u.authenticate(req)).user.username;
  if (!user) throw new Error(`${name}: no user`);
  const us = await measure(() => u.authenticate(req));
  console.log(
    `${name.padEnd(34)} ${us.toFixed(2).padStart(10)}   ${((us / getUs) * 100).toFixed(1).padStart(6)} %`,
  );
}
