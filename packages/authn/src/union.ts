import type { UserInfo } from '@orchard/meta';
import type { AuthenticationRequest, Authenticator } from './authenticator.js';
import { isAuthnError, unauthorized } from './errors.js';

/**
 * The group the union authenticator adds to every authenticated user (once, if the method did not already).
 */
export const allAuthenticatedGroup = 'system:authenticated';
/** The username of a request served anonymously. */
export const anonymousUser = 'system:anonymous';
/** The only group of the anonymous user. */
export const allUnauthenticatedGroup = 'system:unauthenticated';

/** When anonymous requests are accepted (doc 2 §2.1). */
export interface AnonymousOptions {
  readonly enabled: boolean;
  /** When non-empty, only these exact paths are served anonymously (the configuration file's `conditions[].path`). */
  readonly paths?: readonly string[];
}

/**
 * Options of `createUnionAuthenticator`: the methods in order (required), when anonymous requests are
 * accepted, and where failed checks are reported. Not mutated.
 */
export interface UnionAuthenticatorOptions {
  /** Tried in order; the first user wins. */
  readonly authenticators: readonly Authenticator[];
  /** Default: enabled on every path, as upstream's `--anonymous-auth=true`. */
  readonly anonymous?: AnonymousOptions;
  /** Receives the failed check of each 401 (never sent to the caller). */
  readonly onFailure?: (detail: string) => void;
}

/**
 * The defaults of `UnionAuthenticatorOptions`: no methods and anonymous access on every path, as upstream's
 * `--anonymous-auth=true`. Frozen.
 */
export const defaultUnionAuthenticatorOptions: Readonly<
  Required<Omit<UnionAuthenticatorOptions, 'onFailure'>>
> = Object.freeze({
  authenticators: Object.freeze([]) as readonly Authenticator[],
  anonymous: Object.freeze({ enabled: true }),
});

/** What the union decided: a user, with the audiences the token was valid for when a token method decided. */
export interface UnionResult {
  readonly user: UserInfo;
  readonly audiences?: readonly string[];
  readonly anonymous: boolean;
}

/** The server-wide authenticator: methods in order, `system:authenticated` added, then anonymous. */
export interface UnionAuthenticator {
  /** Resolves the user or rejects with `AuthnError('Unauthorized')` (message `Unauthorized`, nothing more). */
  authenticate(request: AuthenticationRequest): Promise<UnionResult>;
}

/**
 * The server-wide authenticator of `options`. Methods run in order and the first user wins; a method that
 * throws makes the request 401 when no later method finds a user (the first failure goes to `onFailure`,
 * never to the caller); without any credentials the request is anonymous when allowed, else rejected with
 * `AuthnError('Unauthorized')`. The returned user is a copy; the method's result is not mutated.
 */
export function createUnionAuthenticator(options: UnionAuthenticatorOptions): UnionAuthenticator {
  const o = { ...defaultUnionAuthenticatorOptions, ...options };
  const paths = o.anonymous.paths && o.anonymous.paths.length > 0 ? new Set(o.anonymous.paths) : undefined;
  return {
    async authenticate(request) {
      let failure: string | undefined;
      for (const a of o.authenticators) {
        try {
          const r = await a.authenticate(request);
          if (r.kind === 'user') {
            const groups = r.user.groups.includes(allAuthenticatedGroup)
              ? r.user.groups
              : [...r.user.groups, allAuthenticatedGroup];
            const user: UserInfo = { ...r.user, groups };
            return r.audiences
              ? { user, audiences: r.audiences, anonymous: false }
              : { user, anonymous: false };
          }
        } catch (e) {
          failure ??= isAuthnError(e) ? (e.detail ?? e.message) : String((e as Error)?.message ?? e);
        }
      }
      if (failure !== undefined) {
        o.onFailure?.(failure);
        throw unauthorized(failure);
      }
      if (o.anonymous.enabled && (paths === undefined || paths.has(request.path))) {
        return { user: { username: anonymousUser, groups: [allUnauthenticatedGroup] }, anonymous: true };
      }
      o.onFailure?.('no credentials and anonymous access is off');
      throw unauthorized('no credentials');
    },
  };
}
