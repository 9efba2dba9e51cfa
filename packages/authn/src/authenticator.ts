import type { UserInfo } from '@orchard/meta';

/**
 * A client certificate the transport has already verified against one or more CA bundles. The server
 * (which owns TLS) fills it in; authenticators only read it.
 */
export interface VerifiedClientCertificate {
  /** The subject's common name (CN). */
  readonly commonName: string;
  /** The subject's organizations (O), in order. */
  readonly organizations: readonly string[];
  /** Names of the CA bundles whose chain verified the certificate, e.g. `client-ca`, `requestheader-client-ca`. */
  readonly verifiedBy: readonly string[];
}

/** What an authenticator may look at: the request's headers (lower-case names), path and certificate. */
export interface AuthenticationRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The request path without the query. */
  readonly path: string;
  readonly clientCertificate?: VerifiedClientCertificate | undefined;
}

/** A success (the user) or "no opinion" (no credential of this method was presented). */
export type AuthenticationResult =
  | { readonly kind: 'user'; readonly user: UserInfo; readonly audiences?: readonly string[] }
  | { readonly kind: 'none' };

/**
 * Turns request attributes into a user (doc 2 §2.1).
 *
 * Contract: resolves `{kind:'none'}` when the request carries no credential this method understands;
 * resolves `{kind:'user'}` on success; rejects with an `AuthnError` code `Unauthorized` when a
 * credential of this method was presented and is invalid (expired, revoked, wrong signature…). The
 * error's message never names the failed check. Must not mutate the request.
 */
export interface Authenticator {
  authenticate(request: AuthenticationRequest): Promise<AuthenticationResult>;
}

/** Same contract as `Authenticator`, over a bearer token already taken from the request. */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<AuthenticationResult>;
}

/**
 * The result of an authenticator that does not recognise the request's credentials, so the next method may
 * try them; frozen and shared, never mutate it.
 */
export const noOpinion: AuthenticationResult = Object.freeze({ kind: 'none' });

/**
 * The result of an authenticator that identified `user` (held by reference, not copied), with the token
 * audiences it was valid for when a token method decided.
 */
export function userResult(user: UserInfo, audiences?: readonly string[]): AuthenticationResult {
  return audiences ? { kind: 'user', user, audiences } : { kind: 'user', user };
}

/** First value of a header (names are lower-case). */
export function headerValue(request: AuthenticationRequest, name: string): string | undefined {
  const v = request.headers[name.toLowerCase()];
  return typeof v === 'string' ? v : v?.[0];
}

/** Every value of a header (names are lower-case). */
export function headerValues(request: AuthenticationRequest, name: string): string[] {
  const v = request.headers[name.toLowerCase()];
  return v === undefined ? [] : typeof v === 'string' ? [v] : [...v];
}
