import { type Authenticator, headerValues, noOpinion, userResult } from './authenticator.js';
import { unauthorized } from './errors.js';

/** The authenticating proxy (`--requestheader-*`, doc 2 §2.1). */
export interface RequestHeaderAuthenticatorOptions {
  /** `--requestheader-username-headers`. Default `X-Remote-User`. */
  readonly usernameHeaders?: readonly string[];
  /** `--requestheader-uid-headers`. Default none. */
  readonly uidHeaders?: readonly string[];
  /** `--requestheader-group-headers`. Default `X-Remote-Group`. */
  readonly groupHeaders?: readonly string[];
  /** `--requestheader-extra-headers-prefix`. Default `X-Remote-Extra-`. */
  readonly extraHeaderPrefixes?: readonly string[];
  /** `--requestheader-allowed-names`: proxy certificate CNs accepted; empty = any CN the CA signed. */
  readonly allowedNames?: readonly string[];
  /** The CA bundle name the transport records for `--requestheader-client-ca-file`. */
  readonly caName?: string;
}

/**
 * The defaults of the request-header (front proxy) authenticator: upstream's `X-Remote-User`,
 * `X-Remote-Group` and `X-Remote-Extra-` headers, no uid header, any CN the CA signed, and the
 * `requestheader-client-ca` bundle. Frozen.
 */
export const defaultRequestHeaderAuthenticatorOptions: Readonly<Required<RequestHeaderAuthenticatorOptions>> =
  Object.freeze({
    usernameHeaders: ['X-Remote-User'],
    uidHeaders: [],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
    allowedNames: [],
    caName: 'requestheader-client-ca',
  });

/** Percent-decodes a header-name suffix; a malformed escape keeps the raw text. */
function decodeKey(s: string): string {
  try {
    return decodeURIComponent(s).toLowerCase();
  } catch {
    return s.toLowerCase();
  }
}

/**
 * Trusts identity headers only on a request whose client certificate the request-header CA verified
 * (and whose CN is allowed). Without such a certificate the headers are ignored (no opinion); with it
 * but no username header, no opinion either.
 */
export function createRequestHeaderAuthenticator(
  options: RequestHeaderAuthenticatorOptions = {},
): Authenticator {
  const o = { ...defaultRequestHeaderAuthenticatorOptions, ...options };
  const lower = (l: readonly string[]) => l.map((h) => h.toLowerCase());
  const userH = lower(o.usernameHeaders);
  const uidH = lower(o.uidHeaders);
  const groupH = lower(o.groupHeaders);
  const prefixes = lower(o.extraHeaderPrefixes);
  return {
    async authenticate(request) {
      const c = request.clientCertificate;
      if (!c?.verifiedBy.includes(o.caName)) return noOpinion;
      let username: string | undefined;
      for (const h of userH) {
        username = headerValues(request, h).find((v) => v !== '');
        if (username !== undefined) break;
      }
      if (username === undefined) return noOpinion;
      if (o.allowedNames.length > 0 && !o.allowedNames.includes(c.commonName)) {
        throw unauthorized(
          `request-header proxy certificate CN ${JSON.stringify(c.commonName)} is not allowed`,
        );
      }
      let uid: string | undefined;
      for (const h of uidH) {
        uid = headerValues(request, h).find((v) => v !== '');
        if (uid !== undefined) break;
      }
      const groups = groupH.flatMap((h) => headerValues(request, h));
      const extra: Record<string, string[]> = Object.create(null);
      for (const [name, value] of Object.entries(request.headers)) {
        const p = prefixes.find((x) => name.startsWith(x));
        if (!p || value === undefined) continue;
        const key = decodeKey(name.slice(p.length));
        if (key === '') continue;
        const list = extra[key] ?? [];
        list.push(...(typeof value === 'string' ? [value] : value));
        extra[key] = list;
      }
      const hasExtra = Object.keys(extra).length > 0;
      return userResult({
        username,
        ...(uid !== undefined ? { uid } : {}),
        groups,
        ...(hasExtra ? { extra: { ...extra } } : {}),
      });
    },
  };
}
