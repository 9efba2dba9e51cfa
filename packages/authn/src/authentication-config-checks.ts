import { X509Certificate } from 'node:crypto';
import { type FieldCause, type Flavor, fieldErrors } from '@orchard/meta';

// IsDomainPrefixedPath: `<DNS-1123 subdomain>/<HTTP path>`.
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const httpPath = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** Upstream's IsDomainPrefixedPath check of an extra-attribute key. */
export function domainPrefixedPathCauses(field: string, key: string): FieldCause[] {
  if (key === '') return [fieldErrors.required(field)];
  const slash = key.indexOf('/');
  if (slash < 0)
    return [fieldErrors.invalid(field, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = key.slice(0, slash);
  const path = key.slice(slash + 1);
  const out: FieldCause[] = [];
  if (host.length > 253 || !dns1123Subdomain.test(host)) {
    out.push(
      fieldErrors.invalid(
        field,
        host,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      ),
    );
  }
  if (!httpPath.test(path)) {
    out.push(fieldErrors.invalid(field, path, 'Invalid path'));
  }
  return out;
}

/** The domains whose keys (and subdomains) are reserved for the system: the flavor's, k8s.io, kubernetes.io. */
export function reservedDomains(flavor: Flavor): string[] {
  return [...new Set([flavor.domain, 'k8s.io', 'kubernetes.io'])];
}

/** Whether a domain-prefixed key is under one of the reserved domains. */
export function isReservedKey(key: string, domains: readonly string[]): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const host = key.slice(0, slash);
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** An issuer or discovery URL: https, no user info, query or fragment, not a disallowed issuer. */
export function urlCauses(field: string, value: string, disallowed: ReadonlySet<string>): FieldCause[] {
  const out: FieldCause[] = [];
  if (disallowed.has(value)) {
    out.push(
      fieldErrors.invalid(
        field,
        value,
        `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`,
      ),
    );
  }
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    out.push(fieldErrors.invalid(field, value, 'not a valid URL'));
    return out;
  }
  if (u.protocol !== 'https:') out.push(fieldErrors.invalid(field, value, 'URL scheme must be https'));
  if (u.username !== '' || u.password !== '')
    out.push(fieldErrors.invalid(field, value, 'URL must not contain a username or password'));
  if (u.search !== '' || value.includes('?'))
    out.push(fieldErrors.invalid(field, value, 'URL must not contain a query'));
  if (u.hash !== '' || value.includes('#'))
    out.push(fieldErrors.invalid(field, value, 'URL must not contain a fragment'));
  return out;
}

/** A certificate authority bundle: every PEM block a valid certificate, at least one. */
export function caCauses(field: string, pem: string): FieldCause[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  let valid = 0;
  for (const b of blocks) {
    try {
      new X509Certificate(b);
      valid++;
    } catch {
      // counted below
    }
  }
  return valid === 0 || valid !== blocks.length
    ? [fieldErrors.invalid(field, '<omitted>', 'data does not contain any valid RSA or ECDSA certificates')]
    : [];
}

// Upstream's check that a username built from `claims.email` also looks at `claims.email_verified`
// (a select or optional select on the `claims` identifier).
const selects = (field: string) => new RegExp(`\\bclaims\\s*\\.\\s*\\??\\s*${field}\\b`);
/** Whether a CEL expression selects `claims.email`. */
export const usesEmail = (expr: string) => selects('email').test(expr);
/** Whether a CEL expression selects `claims.email_verified`. */
export const usesEmailVerified = (expr: string) => selects('email_verified').test(expr);
