import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { errors, type UserInfo } from '@orchard/meta';
import type { Filter } from './filter.js';

/**
 * Who is calling (spec doc 2 §2). Returns the user, or undefined when the request carries no
 * credentials this authenticator accepts (the server answers 401 outside the public paths). May
 * return a promise (token webhooks); a synchronous answer keeps the request on the fast path.
 * Throwing rejects the request with that error (an `ApiError` is written as is).
 */
export interface Authenticator {
  authenticate(req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined>;
}

/**
 * Upstream's x509 authenticator: a client certificate that chains to the configured client CA
 * names the user (CN) and the groups (O values, plus `system:authenticated`).
 */
export function createClientCertAuthenticator(): Authenticator {
  return {
    authenticate(req) {
      const socket = req.socket as TLSSocket;
      if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
      const cert = socket.getPeerCertificate();
      const subject = cert?.subject as unknown as Record<string, string | string[] | undefined> | undefined;
      const cn = subject?.CN;
      const username = Array.isArray(cn) ? cn[0] : cn;
      if (!username) return undefined;
      const o = subject?.O;
      const orgs = o === undefined ? [] : Array.isArray(o) ? o : [o];
      return { username, groups: [...orgs, 'system:authenticated'] };
    },
  };
}

/** Every request is `user` (insecure mode, `--insecure-http`: the admin). */
export function createFixedAuthenticator(user: UserInfo): Authenticator {
  return { authenticate: () => user };
}

/** Paths served without credentials (upstream's `system:public-info-viewer` paths). */
const publicPaths = /^\/(version|livez|readyz|healthz)(\/.*)?$/;

/**
 * The first filter: sets `ctx.user` from the authenticator; a request without a user gets 401
 * Unauthorized, except on the public paths (which go on with `ctx.user` undefined).
 */
export function authenticationFilter(authenticator: Authenticator): Filter {
  const decide = (ctx: Parameters<Filter>[0], user: UserInfo | undefined): void => {
    if (!user && !publicPaths.test(ctx.info.path)) throw errors.unauthorized();
    ctx.user = user;
  };
  return (ctx, next) => {
    const user = authenticator.authenticate(ctx.req);
    if (user instanceof Promise)
      return user.then((u) => {
        decide(ctx, u);
        return next();
      });
    decide(ctx, user);
    return next();
  };
}
