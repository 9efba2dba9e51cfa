import { fromBase64 } from '@orchard/meta/internal';
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTPayload, jwtVerify } from 'jose';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { invalidConfiguration, unauthorized } from './errors.js';
import { onceReady } from './once-ready.js';

/** The `--oidc-*` flags (doc 2 §2.1). */
export interface OidcAuthenticatorOptions {
  /** `--oidc-issuer-url`; https only. */
  readonly issuerUrl: string;
  /** `--oidc-client-id`: the required audience. */
  readonly clientId: string;
  /** `--oidc-username-claim`. Default `sub`. */
  readonly usernameClaim?: string;
  /**
   * `--oidc-username-prefix`. Default: `<issuer>#` unless the claim is `email`; `-` means none.
   */
  readonly usernamePrefix?: string;
  /** `--oidc-groups-claim`. Default none. */
  readonly groupsClaim?: string;
  /** `--oidc-groups-prefix`. Default none. */
  readonly groupsPrefix?: string;
  /** `--oidc-required-claim` key=value pairs. */
  readonly requiredClaims?: Readonly<Record<string, string>>;
  /** `--oidc-signing-algs`. Default `RS256`. */
  readonly signingAlgs?: readonly string[];
  /** The fetch used for discovery and JWKS (the server passes one that trusts `--oidc-ca-file`). */
  readonly fetch?: (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;
  /** JWKS cache age before a refetch, ms. Default 10 min; an unknown `kid` refetches sooner (cooldown 30 s). */
  readonly jwksCacheMaxAgeMs?: number;
  readonly now?: () => number;
}

/** Resolves the username prefix rules of `--oidc-username-prefix`. */
export function oidcUsernamePrefix(issuerUrl: string, claim: string, prefix: string | undefined): string {
  if (prefix === '-') return '';
  if (prefix !== undefined) return prefix;
  return claim === 'email' ? '' : `${issuerUrl}#`;
}

/**
 * OIDC ID tokens: discovery (`<issuer>/.well-known/openid-configuration`) then the JWKS, cached with
 * refetch on an unknown key id (key rotation); algorithms pinned to `signingAlgs`; issuer, audience
 * (`clientId`), expiry, required claims; with `email` as the username claim, `email_verified` must not
 * be false. A token of another issuer is "no opinion".
 */
export function createOidcAuthenticator(options: OidcAuthenticatorOptions): TokenAuthenticator {
  let url: URL;
  try {
    url = new URL(options.issuerUrl);
  } catch {
    throw invalidConfiguration(`--oidc-issuer-url: Invalid value: "${options.issuerUrl}": not a URL`);
  }
  if (url.protocol !== 'https:') {
    throw invalidConfiguration(`--oidc-issuer-url: Invalid value: "${options.issuerUrl}": must use https`);
  }
  if (options.clientId === '') throw invalidConfiguration('--oidc-client-id: Required value');
  const issuer = options.issuerUrl;
  const usernameClaim = options.usernameClaim ?? 'sub';
  const prefix = oidcUsernamePrefix(issuer, usernameClaim, options.usernamePrefix);
  const algs = [...(options.signingAlgs ?? ['RS256'])];
  const doFetch = options.fetch ?? ((u: string, init?: { signal?: AbortSignal }) => fetch(u, init));
  const now = options.now ?? Date.now;

  async function discover() {
    const res = await doFetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`discovery: HTTP ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== issuer)
      throw new Error(`discovery: issuer ${String(doc.issuer)} does not match ${issuer}`);
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery: no jwks_uri');
    const f: FetchImplementation = (u, init) => doFetch(u, { signal: init.signal });
    return createRemoteJWKSet(new URL(doc.jwks_uri), {
      cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
      cooldownDuration: 30_000,
      [customFetch]: f,
    });
  }
  const discovered = onceReady(discover);

  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      const parts = token.split('.');
      if (parts.length !== 3) return noOpinion;
      let iss: unknown;
      try {
        const bytes = fromBase64(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'));
        if (!bytes) return noOpinion;
        iss = (JSON.parse(new TextDecoder().decode(bytes)) as { iss?: unknown }).iss;
      } catch {
        return noOpinion;
      }
      if (iss !== issuer) return noOpinion;
      let jwks: Awaited<ReturnType<typeof discovered>>;
      try {
        jwks = await discovered();
      } catch (e) {
        throw unauthorized(`oidc: ${(e as Error).message}`);
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          algorithms: algs,
          issuer,
          audience: options.clientId,
          currentDate: new Date(now()),
          requiredClaims: ['exp'],
        }));
      } catch (e) {
        throw unauthorized(`oidc: ${(e as Error).message}`);
      }
      for (const [k, v] of Object.entries(options.requiredClaims ?? {})) {
        if (!Object.hasOwn(payload, k) || payload[k] !== v)
          throw unauthorized(`oidc: required claim ${k} missing`);
      }
      const name = Object.hasOwn(payload, usernameClaim) ? payload[usernameClaim] : undefined;
      if (typeof name !== 'string' || name === '') throw unauthorized(`oidc: no ${usernameClaim} claim`);
      if (
        usernameClaim === 'email' &&
        Object.hasOwn(payload, 'email_verified') &&
        payload.email_verified !== true
      ) {
        throw unauthorized('oidc: email not verified');
      }
      let groups: string[] = [];
      if (options.groupsClaim && Object.hasOwn(payload, options.groupsClaim)) {
        const g = payload[options.groupsClaim];
        const list = typeof g === 'string' ? [g] : Array.isArray(g) ? g : undefined;
        if (!list || list.some((x) => typeof x !== 'string'))
          throw unauthorized('oidc: groups claim is not strings');
        groups = (list as string[]).map((x) => `${options.groupsPrefix ?? ''}${x}`);
      }
      return userResult({ username: `${prefix}${name}`, groups }, [options.clientId]);
    },
  };
}
