import type { Socket } from 'node:net';
import { isAuthnError, type UnionAuthenticator, type VerifiedClientCertificate } from '@orchard/authn';
import { errors, type UserInfo } from '@orchard/meta';
import type { Filter } from './filter.js';

/** Every request is `user` (insecure mode, `--insecure-http`: the admin). */
export function createFixedAuthenticator(user: UserInfo): UnionAuthenticator {
  const result = Object.freeze({ user, anonymous: false });
  const authenticator: UnionAuthenticator = { authenticate: () => Promise.resolve(result) };
  fixedUsers.set(authenticator, user);
  return authenticator;
}

/** The user of each fixed authenticator: its filter sets it without a promise per request. */
const fixedUsers = new WeakMap<UnionAuthenticator, UserInfo>();

/** Paths served to anonymous callers while no authorizer decides (upstream's `system:public-info-viewer` paths). */
const publicPaths = /^\/(version|livez|readyz|healthz)(\/.*)?$/;

/**
 * How the authentication filter reads client certificates and whether an authorizer decides for
 * anonymous callers.
 */
export interface AuthenticationFilterOptions {
  /** The verified client certificate of a connection (the TLS layer's answer). */
  readonly readClientCertificate?: (socket: Socket) => VerifiedClientCertificate | undefined;
  /**
   * Whether an authorizer decides what anonymous callers reach. Until one does (the default
   * allow-all), an anonymous request outside the public paths is 401, so "no credential" never
   * means "everything".
   */
  readonly authorizerDecidesAnonymous?: boolean;
}

/**
 * The first filter: sets `ctx.user` from the union authenticator (doc 2 §5.1). A presented but
 * invalid credential is 401 Unauthorized whose message names no check; no credential is the
 * anonymous user when enabled.
 */
export function authenticationFilter(
  authenticator: UnionAuthenticator,
  options: AuthenticationFilterOptions = {},
): Filter {
  const readCert = options.readClientCertificate;
  const fixedUser = fixedUsers.get(authenticator);
  if (fixedUser)
    return (ctx, next) => {
      ctx.user = fixedUser;
      return next();
    };
  return async (ctx, next) => {
    const clientCertificate = readCert?.(ctx.req.socket);
    let result: Awaited<ReturnType<UnionAuthenticator['authenticate']>>;
    try {
      result = await authenticator.authenticate({
        // Repeated headers (X-Remote-Group, Impersonate-Group) stay separate values, never comma-joined.
        headers: ctx.req.headersDistinct,
        path: ctx.info.path,
        clientCertificate,
      });
    } catch (e) {
      if (isAuthnError(e)) throw errors.unauthorized();
      throw e;
    }
    if (result.anonymous && !options.authorizerDecidesAnonymous && !publicPaths.test(ctx.info.path))
      throw errors.unauthorized();
    ctx.user = result.user;
    return next();
  };
}
