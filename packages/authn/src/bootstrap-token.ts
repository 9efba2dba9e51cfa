import { fromBase64 } from '@orchard/meta/internal';
import {
  type AuthenticationResult,
  noOpinion,
  type TokenAuthenticator,
  userResult,
} from './authenticator.js';
import { constantTimeEqual } from './constant-time.js';
import { unauthorized } from './errors.js';

/** The parts of a bootstrap-token Secret the authenticator reads (`data` values base64, as stored). */
export interface BootstrapTokenSecret {
  readonly type?: string;
  readonly metadata?: { readonly deletionTimestamp?: string };
  readonly data?: Readonly<Record<string, string>>;
}

/** Reads `bootstrap-token-<id>` from the system namespace; undefined when absent. */
export type BootstrapSecretReader = (
  namespace: string,
  name: string,
) => Promise<BootstrapTokenSecret | undefined>;

/**
 * Options of the bootstrap-token authenticator: `getSecret` reads the token's Secret (required; a rejection
 * of its promise fails the request), the rest default as each field says.
 */
export interface BootstrapTokenAuthenticatorOptions {
  readonly getSecret: BootstrapSecretReader;
  /** The flavor's domain: Secret type `bootstrap.<domain>/token`. Default `kubernetes.io`. */
  readonly domain?: string;
  /** Default `kube-system`. */
  readonly systemNamespace?: string;
  /** Clock for expiration. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The bootstrap token format `<6 lower-case alphanumerics>.<16 lower-case alphanumerics>`, capturing the id
 * and the secret; a token not matching it is left to other authenticators.
 */
export const bootstrapTokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/**
 * The groups a bootstrap token Secret may add through `auth-extra-groups`: `system:bootstrappers:` followed
 * by lower-case alphanumerics, `:` and `-`, ending alphanumeric; a Secret naming any other group makes
 * its token fail with 401.
 */
export const bootstrapGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** Splits `<id>.<secret>`; undefined when the token is not in the bootstrap format. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = bootstrapTokenPattern.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

function decode(data: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  const v = data && Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof v !== 'string') return undefined;
  const bytes = fromBase64(v);
  return bytes ? new TextDecoder().decode(bytes) : undefined;
}

/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`, doc 2 §2.4): `<id>.<secret>` looked up as the
 * Secret `bootstrap-token-<id>` of type `bootstrap.<domain>/token`; the secret compared in constant
 * time; `expiration` in the past, `usage-bootstrap-authentication` not `true`, a Secret being deleted
 * or a bad `auth-extra-groups` entry reject it. Identity `system:bootstrap:<id>` in
 * `system:bootstrappers` plus the extra groups. Tokens not in the format are "no opinion".
 */
export function createBootstrapTokenAuthenticator(
  options: BootstrapTokenAuthenticatorOptions,
): TokenAuthenticator {
  const domain = options.domain ?? 'kubernetes.io';
  const ns = options.systemNamespace ?? 'kube-system';
  const now = options.now ?? Date.now;
  return {
    async authenticateToken(token): Promise<AuthenticationResult> {
      const parsed = parseBootstrapToken(token);
      if (!parsed) return noOpinion;
      const s = await options.getSecret(ns, `bootstrap-token-${parsed.id}`);
      if (!s) throw unauthorized(`bootstrap token ${parsed.id}: secret not found`);
      if (s.type !== `bootstrap.${domain}/token`)
        throw unauthorized(`bootstrap token ${parsed.id}: wrong secret type`);
      if (s.metadata?.deletionTimestamp)
        throw unauthorized(`bootstrap token ${parsed.id}: secret is being deleted`);
      const secret = decode(s.data, 'token-secret');
      const id = decode(s.data, 'token-id');
      if (secret === undefined || id !== parsed.id || !constantTimeEqual(secret, parsed.secret)) {
        throw unauthorized(`bootstrap token ${parsed.id}: token does not match`);
      }
      const exp = decode(s.data, 'expiration');
      if (exp !== undefined) {
        const t = Date.parse(exp);
        if (Number.isNaN(t) || t <= now()) throw unauthorized(`bootstrap token ${parsed.id}: expired`);
      }
      if (decode(s.data, 'usage-bootstrap-authentication') !== 'true') {
        throw unauthorized(`bootstrap token ${parsed.id}: not marked for authentication`);
      }
      const groups = ['system:bootstrappers'];
      const extra = decode(s.data, 'auth-extra-groups');
      if (extra !== undefined && extra !== '') {
        for (const g of extra.split(',').map((x) => x.trim())) {
          if (!bootstrapGroupPattern.test(g))
            throw unauthorized(`bootstrap token ${parsed.id}: bad auth-extra-groups`);
          if (!groups.includes(g)) groups.push(g);
        }
      }
      return userResult({ username: `system:bootstrap:${parsed.id}`, groups });
    },
  };
}
