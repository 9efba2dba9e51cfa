import {
  type AuthenticationRequest,
  type AuthenticationResult,
  type Authenticator,
  headerValue,
  noOpinion,
  type TokenAuthenticator,
} from './authenticator.js';
import { unauthorized } from './errors.js';

/** The token of `Authorization: Bearer <token>`, or undefined (no header, another scheme, empty token). */
export function parseBearerToken(request: AuthenticationRequest): string | undefined {
  const h = headerValue(request, 'authorization');
  if (h === undefined) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/**
 * Tries each token authenticator in order; the first user wins. A token presented that no method
 * accepts is a 401 (a token is a claim to be someone: it never falls through to anonymous).
 */
export function createBearerTokenAuthenticator(
  tokenAuthenticators: readonly TokenAuthenticator[],
): Authenticator {
  return {
    async authenticate(request): Promise<AuthenticationResult> {
      const token = parseBearerToken(request);
      if (token === undefined) return noOpinion;
      let firstError: unknown;
      for (const t of tokenAuthenticators) {
        try {
          const r = await t.authenticateToken(token);
          if (r.kind === 'user') return r;
        } catch (e) {
          firstError ??= e;
        }
      }
      throw unauthorized(
        firstError instanceof Error ? (firstError as Error).message : 'invalid bearer token',
      );
    },
  };
}
