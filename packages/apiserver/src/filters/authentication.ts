import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../registry/resource.js';

/**
 * Who is calling. Until the authentication package lands, two mechanisms exist:
 * - a client certificate that chains to the configured client CA: user = CN, groups = O values
 *   (+ `system:authenticated`), as upstream's x509 authenticator maps them;
 * - insecure mode (`--insecure-http`): every request is the configured admin user.
 * Returns undefined when the request is not authenticated (the server answers 401).
 */
export interface Authenticator {
  authenticate(req: IncomingMessage): UserInfo | undefined;
}

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

export function createFixedAuthenticator(user: UserInfo): Authenticator {
  return { authenticate: () => user };
}
