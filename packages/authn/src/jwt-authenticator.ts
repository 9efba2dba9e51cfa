import type { UserInfo } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTPayload, jwtVerify } from 'jose';
import type { JwtAuthenticatorConfig, PrefixedClaimMapping } from './authentication-config.js';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { isAuthnError, unauthorized } from './errors.js';
import { createHttpsFetch, type FetchLike } from './https-fetch.js';
import { onceReady } from './once-ready.js';
import { createTokenCache } from './token-cache.js';

/** The asymmetric algorithms an identity provider may sign with (never `none` or HMAC). */
export const jwtSigningAlgorithms = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
]);

/**
 * Options shared by every JWT authenticator; all optional (`defaultJwtAuthenticatorOptions` holds the
 * defaults that are values, `now` defaults to `Date.now`). Not mutated.
 */
export interface JwtAuthenticatorOptions {
  /**
   * The fetch for discovery and JWKS. Default: node:https trusting `issuer.certificateAuthority`
   * (the system roots when unset), 10 s per request.
   */
  readonly fetch?: FetchLike;
  /** JWKS cache age before a refetch, ms. Default 10 min; an unknown `kid` refetches sooner. */
  readonly jwksCacheMaxAgeMs?: number;
  /** Least time between two JWKS fetches triggered by unknown key ids (key rotation), ms. Default 30 s. */
  readonly jwksRefetchCooldownMs?: number;
  /**
   * How long a verified token's user is reused without verifying its signature again, ms (never past
   * the token's `exp`). Default 10 s; 0 disables. Rejections are not cached.
   */
  readonly verifiedTokenCacheTtlMs?: number;
  /** Entries of the verified-token cache. Default 4096. */
  readonly verifiedTokenCacheSize?: number;
  readonly now?: () => number;
}

/**
 * The defaults of `JwtAuthenticatorOptions` that are values: JWKS kept 10 minutes, verified tokens reused for
 * 10 s, 4096 cached tokens. Frozen.
 */
export const defaultJwtAuthenticatorOptions: Readonly<
  Required<
    Pick<JwtAuthenticatorOptions, 'jwksCacheMaxAgeMs' | 'verifiedTokenCacheTtlMs' | 'verifiedTokenCacheSize'>
  >
> = Object.freeze({
  jwksCacheMaxAgeMs: 600_000,
  verifiedTokenCacheTtlMs: 10_000,
  verifiedTokenCacheSize: 4096,
});

/** The `iss` of a compact JWT without verifying it, or undefined when the token is not a JWT. */
export function unverifiedIssuer(token: string): unknown {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1]!.length > 64 * 1024) return undefined;
  try {
    const json = Buffer.from(parts[1]!, 'base64url').toString('utf8');
    const payload: unknown = JSON.parse(json);
    return typeof payload === 'object' && payload !== null ? getOwn(payload, 'iss') : undefined;
  } catch {
    return undefined;
  }
}

function stringsOf(value: unknown, what: string): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.filter((v) => v !== '');
  throw unauthorized(`jwt: ${what} must be a string or a list of strings`);
}

function evaluate(
  program: { evaluate(a: Record<string, unknown>): unknown },
  activation: Record<string, unknown>,
  what: string,
): unknown {
  try {
    return program.evaluate(activation);
  } catch (e) {
    throw unauthorized(`jwt: ${what}: ${(e as Error).message}`);
  }
}

function mapPrefixed(m: PrefixedClaimMapping, claims: JWTPayload, what: string): unknown {
  if (m.kind === 'expression') return evaluate(m.program, { claims }, `${what} expression`);
  const v = getOwn(claims, m.claim);
  if (typeof v === 'string') return `${m.prefix}${v}`;
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? `${m.prefix}${x}` : x));
  return v;
}

/**
 * One `jwt[]` authenticator of an AuthenticationConfiguration (doc 2 §2.5): a token whose `iss` is
 * another issuer is "no opinion"; otherwise discovery (`discoveryURL` or `<url>/.well-known/
 * openid-configuration`, whose `issuer` must be `issuer.url`) and the JWKS, the signature with an
 * asymmetric algorithm, `aud` (one of `audiences`), `exp`/`nbf`, the claim validation rules, the claim
 * mappings, the user validation rules. Any failure is a 401 that names nothing.
 */
export function createJwtAuthenticator(
  config: JwtAuthenticatorConfig,
  options: JwtAuthenticatorOptions = {},
): TokenAuthenticator {
  const o = { ...defaultJwtAuthenticatorOptions, ...options };
  const now = options.now ?? Date.now;
  const issuer = config.issuer.url;
  const doFetch =
    options.fetch ??
    createHttpsFetch(
      config.issuer.certificateAuthority !== undefined ? { ca: config.issuer.certificateAuthority } : {},
    );
  const discoveryURL =
    config.issuer.discoveryURL ?? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const cache = createTokenCache({ maxEntries: o.verifiedTokenCacheSize, now });

  async function discover() {
    const res = await doFetch(discoveryURL);
    if (!res.ok) throw new Error(`discovery: HTTP ${res.status}`);
    const doc: unknown = await res.json();
    const iss = typeof doc === 'object' && doc !== null ? getOwn(doc, 'issuer') : undefined;
    const jwksUri = typeof doc === 'object' && doc !== null ? getOwn(doc, 'jwks_uri') : undefined;
    if (iss !== issuer) throw new Error(`discovery: issuer ${JSON.stringify(iss)} does not match ${issuer}`);
    if (typeof jwksUri !== 'string') throw new Error('discovery: no jwks_uri');
    const f: FetchImplementation = (u, init) => doFetch(u, { signal: init.signal });
    return createRemoteJWKSet(new URL(jwksUri), {
      cacheMaxAge: o.jwksCacheMaxAgeMs,
      cooldownDuration: o.jwksRefetchCooldownMs,
      timeoutDuration: 10_000,
      [customFetch]: f,
    });
  }
  const discovered = onceReady(discover);

  async function verify(token: string): Promise<{ user: UserInfo; audiences: string[]; exp: number }> {
    let jwks: Awaited<ReturnType<typeof discovered>>;
    try {
      jwks = await discovered();
    } catch (e) {
      throw unauthorized(`jwt: ${(e as Error).message}`);
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, jwks, {
        algorithms: [...jwtSigningAlgorithms],
        issuer,
        audience: [...config.issuer.audiences],
        currentDate: new Date(now()),
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      throw unauthorized(`jwt: ${(e as Error).message}`);
    }
    for (const r of config.claimValidationRules) {
      if (r.kind === 'claim') {
        const v = getOwn(claims, r.claim);
        if (v === undefined) throw unauthorized(`jwt: claim ${r.claim} not present`);
        if (typeof v !== 'string' || v !== r.requiredValue)
          throw unauthorized(`jwt: claim ${r.claim} does not have the required value`);
      } else if (evaluate(r.program, { claims }, 'claim validation rule') !== true) {
        throw unauthorized(`jwt: claim validation rule failed: ${r.message || r.program.expression}`);
      }
    }
    const m = config.username;
    if (m.kind === 'claim' && m.claim === 'email') {
      const verified = getOwn(claims, 'email_verified');
      if (verified !== undefined && verified !== true) throw unauthorized('jwt: email not verified');
    }
    const username = mapPrefixed(m, claims, 'username');
    if (typeof username !== 'string') throw unauthorized('jwt: username must be a string');
    if (username === '' || (m.kind === 'claim' && getOwn(claims, m.claim) === '')) {
      throw unauthorized('jwt: empty username');
    }
    const groups = config.groups ? stringsOf(mapPrefixed(config.groups, claims, 'groups'), 'groups') : [];
    let uid: string | undefined;
    if (config.uid) {
      const v =
        config.uid.kind === 'claim'
          ? getOwn(claims, config.uid.claim)
          : evaluate(config.uid.program, { claims }, 'uid expression');
      if (v !== undefined && v !== null && typeof v !== 'string')
        throw unauthorized('jwt: uid must be a string');
      if (typeof v === 'string' && v !== '') uid = v;
    }
    const extra: Record<string, string[]> = {};
    for (const e of config.extra) {
      const values = stringsOf(evaluate(e.program, { claims }, `extra ${e.key}`), `extra ${e.key}`);
      if (values.length > 0) extra[e.key] = values;
    }
    const user: UserInfo = {
      username,
      ...(uid !== undefined ? { uid } : {}),
      groups,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    };
    const userValue = { username, uid: uid ?? '', groups, extra };
    for (const r of config.userValidationRules) {
      if (evaluate(r.program, { user: userValue }, 'user validation rule') !== true) {
        throw unauthorized(`jwt: user validation rule failed: ${r.message || r.program.expression}`);
      }
    }
    const aud = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
    const audiences = config.issuer.audiences.filter((a) => aud.includes(a));
    return { user, audiences, exp: (claims.exp as number) * 1000 };
  }

  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      if (unverifiedIssuer(token) !== issuer) return noOpinion;
      if (o.verifiedTokenCacheTtlMs > 0) {
        const hit = cache.get(token);
        if (hit?.ok) return hit.result;
      }
      try {
        const { user, audiences, exp } = await verify(token);
        const result = userResult(user, audiences);
        if (o.verifiedTokenCacheTtlMs > 0)
          cache.set(token, { ok: true, result }, Math.min(exp, now() + o.verifiedTokenCacheTtlMs));
        return result;
      } catch (e) {
        if (isAuthnError(e)) throw e;
        throw unauthorized(`jwt: ${(e as Error)?.message ?? String(e)}`);
      }
    },
  };
}
