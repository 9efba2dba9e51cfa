import { X509Certificate } from 'node:crypto';
import { type CelEnv, createEnv, type Program } from '@orchard/cel';
import { type FieldCause, type Flavor, fieldErrors, orchFlavor } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import { z } from 'zod';
import type { AnonymousConfigSection } from './anonymous.js';
import { compileConfigExpression, parseConfigDocument, parseConfigSchema } from './config-file.js';
import { invalidConfiguration } from './errors.js';

/** Limits of doc 2 §2.5 / §8. */
export const maxJwtAuthenticators = 64;
/** A configuration file larger than this is refused before parsing. */
export const maxAuthenticationConfigBytes = 1 << 20;
/** The API versions of AuthenticationConfiguration release 1.32 reads. */
export const authenticationConfigVersions = ['v1beta1', 'v1alpha1'] as const;

// The file as written: strict objects (an unknown field is an error, as upstream's strict decoding),
// every field optional here so the validate pass below can name what is missing.
const str = z.string().nullish();
const prefixedClaimOrExpression = z.strictObject({ claim: str, prefix: str, expression: str });
const claimOrExpression = z.strictObject({ claim: str, expression: str });
const fileSchema = z.strictObject({
  apiVersion: z.string(),
  kind: z.literal('AuthenticationConfiguration'),
  jwt: z
    .array(
      z.strictObject({
        issuer: z
          .strictObject({
            url: str,
            discoveryURL: str,
            certificateAuthority: str,
            audiences: z.array(z.string()).nullish(),
            audienceMatchPolicy: str,
          })
          .nullish(),
        claimValidationRules: z
          .array(z.strictObject({ claim: str, requiredValue: str, expression: str, message: str }))
          .nullish(),
        claimMappings: z
          .strictObject({
            username: prefixedClaimOrExpression.nullish(),
            groups: prefixedClaimOrExpression.nullish(),
            uid: claimOrExpression.nullish(),
            extra: z.array(z.strictObject({ key: str, valueExpression: str })).nullish(),
          })
          .nullish(),
        userValidationRules: z.array(z.strictObject({ expression: str, message: str })).nullish(),
      }),
    )
    .nullish(),
  anonymous: z
    .strictObject({
      enabled: z.boolean(),
      conditions: z.array(z.strictObject({ path: z.string() })).nullish(),
    })
    .nullish(),
});
type FileShape = z.infer<typeof fileSchema>;

/** A claim validation rule, compiled. */
export type ClaimValidationRule =
  | { readonly kind: 'claim'; readonly claim: string; readonly requiredValue: string }
  | { readonly kind: 'expression'; readonly program: Program; readonly message: string };

/** A username or groups mapping, compiled: a claim with its prefix, or a CEL program over `claims`. */
export type PrefixedClaimMapping =
  | { readonly kind: 'claim'; readonly claim: string; readonly prefix: string }
  | { readonly kind: 'expression'; readonly program: Program };

/** One `jwt[]` entry after validation, its CEL programs compiled once. */
export interface JwtAuthenticatorConfig {
  readonly issuer: {
    readonly url: string;
    readonly discoveryURL?: string;
    readonly certificateAuthority?: string;
    readonly audiences: readonly string[];
  };
  readonly claimValidationRules: readonly ClaimValidationRule[];
  readonly username: PrefixedClaimMapping;
  readonly groups?: PrefixedClaimMapping;
  readonly uid?:
    | { readonly kind: 'claim'; readonly claim: string }
    | { readonly kind: 'expression'; readonly program: Program };
  readonly extra: readonly { readonly key: string; readonly program: Program }[];
  readonly userValidationRules: readonly { readonly program: Program; readonly message: string }[];
}

/** A validated AuthenticationConfiguration (doc 2 §2.5). */
export interface AuthenticationConfiguration {
  readonly apiVersion: string;
  readonly jwt: readonly JwtAuthenticatorConfig[];
  /** Present when the file has an `anonymous` section. */
  readonly anonymous?: AnonymousConfigSection;
}

/**
 * Options of `parseAuthenticationConfiguration`; all optional, with the defaults named on each field. They
 * only decide what is valid and how errors are worded; parsing never mutates them.
 */
export interface ParseAuthenticationConfigurationOptions {
  /** The file name errors start with. Default `authentication configuration`. */
  readonly file?: string;
  /** Which `apiserver.config.<domain>` group the file must use. Default the orch flavor. */
  readonly flavor?: Flavor;
  /** Issuers a JWT authenticator must not claim (the service-account issuers). */
  readonly disallowedIssuers?: readonly string[];
  /** Gate `AnonymousAuthConfigurableEndpoints` (beta, on by default in 1.32): off forbids `anonymous`. */
  readonly anonymousConfigurable?: boolean;
}

// IsDomainPrefixedPath: `<DNS-1123 subdomain>/<HTTP path>`.
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const httpPath = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

function domainPrefixedPathCauses(field: string, key: string): FieldCause[] {
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

function reservedDomains(flavor: Flavor): string[] {
  return [...new Set([flavor.domain, 'k8s.io', 'kubernetes.io'])];
}

function isReservedKey(key: string, domains: readonly string[]): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const host = key.slice(0, slash);
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

function urlCauses(field: string, value: string, disallowed: ReadonlySet<string>): FieldCause[] {
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

function caCauses(field: string, pem: string): FieldCause[] {
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
const usesEmail = (expr: string) => selects('email').test(expr);
const usesEmailVerified = (expr: string) => selects('email_verified').test(expr);

/**
 * Parses and validates an AuthenticationConfiguration file (YAML or JSON), compiling each CEL program
 * once. Every rule of doc 2 §2.5 is enforced here; a bad file throws `AuthnError('InvalidConfiguration')`
 * whose message names the file and every bad field path, upstream's `field.Error` wording.
 */
export function parseAuthenticationConfiguration(
  text: string,
  options: ParseAuthenticationConfigurationOptions = {},
): AuthenticationConfiguration {
  const file = options.file ?? 'authentication configuration';
  const flavor = options.flavor ?? orchFlavor;
  const fail = (causes: readonly FieldCause[]) =>
    invalidConfiguration(`${file}: ${aggregateMessage(causes)}`);
  const docOptions = { file, kind: 'AuthenticationConfiguration', fail: invalidConfiguration };
  const raw = parseConfigDocument(text, { ...docOptions, maxBytes: maxAuthenticationConfigBytes });
  const parsed: FileShape = parseConfigSchema(fileSchema, raw, docOptions);
  const group = `apiserver.config.${flavor.domain}`;
  const supported = authenticationConfigVersions.map((v) => `${group}/${v}`);
  if (!supported.includes(parsed.apiVersion)) {
    throw fail([fieldErrors.notSupported('apiVersion', parsed.apiVersion, supported)]);
  }
  const causes: FieldCause[] = [];
  const jwts = parsed.jwt ?? [];
  if (jwts.length > maxJwtAuthenticators) {
    throw fail([
      {
        reason: 'FieldValueTooMany',
        field: 'jwt',
        message: `Too many: ${jwts.length}: must have at most ${maxJwtAuthenticators} items`,
      },
    ]);
  }
  const claimsEnv = createEnv({ variables: { claims: 'map<string, dyn>' } });
  const userEnv = createEnv({ variables: { user: 'map<string, dyn>' } });
  const compileAt = (field: string, expression: string, env: CelEnv, outputType?: string) =>
    compileConfigExpression(expression, env, field, causes, outputType);
  const disallowed = new Set(options.disallowedIssuers ?? []);
  const reserved = reservedDomains(flavor);
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  const out: JwtAuthenticatorConfig[] = [];
  for (const [i, entry] of jwts.entries()) {
    const at = `jwt[${i}]`;
    // Absent sections are empty, so the rules below name what is missing inside them.
    const j = { ...entry, issuer: entry.issuer ?? {}, claimMappings: entry.claimMappings ?? {} };
    const before = causes.length;
    // issuer
    const url = j.issuer.url ?? '';
    if (url === '') causes.push(fieldErrors.required(`${at}.issuer.url`));
    else causes.push(...urlCauses(`${at}.issuer.url`, url, disallowed));
    if (url !== '' && seenIssuers.has(url)) causes.push(fieldErrors.duplicate(`${at}.issuer.url`, url));
    seenIssuers.add(url);
    const discoveryURL = j.issuer.discoveryURL ?? '';
    if (discoveryURL !== '') {
      if (url !== '' && url.replace(/\/+$/, '') === discoveryURL.replace(/\/+$/, '')) {
        causes.push(
          fieldErrors.invalid(
            `${at}.issuer.discoveryURL`,
            discoveryURL,
            'discoveryURL must be different from URL',
          ),
        );
      }
      causes.push(...urlCauses(`${at}.issuer.discoveryURL`, discoveryURL, new Set()));
      if (seenDiscovery.has(discoveryURL))
        causes.push(fieldErrors.duplicate(`${at}.issuer.discoveryURL`, discoveryURL));
      seenDiscovery.add(discoveryURL);
    }
    const audiences = j.issuer.audiences ?? [];
    const policy = j.issuer.audienceMatchPolicy ?? '';
    if (audiences.length === 0) {
      causes.push(
        fieldErrors.required(`${at}.issuer.audiences`, `at least one ${at}.issuer.audiences is required`),
      );
    } else {
      const seen = new Set<string>();
      for (const [k, a] of audiences.entries()) {
        if (a === '') causes.push(fieldErrors.required(`${at}.issuer.audiences[${k}]`));
        if (seen.has(a)) causes.push(fieldErrors.duplicate(`${at}.issuer.audiences[${k}]`, a));
        seen.add(a);
      }
      if (audiences.length > 1 && policy !== 'MatchAny') {
        causes.push(
          fieldErrors.invalid(
            `${at}.issuer.audienceMatchPolicy`,
            policy,
            'audienceMatchPolicy must be MatchAny for multiple audiences',
          ),
        );
      }
      if (audiences.length === 1 && policy !== '' && policy !== 'MatchAny') {
        causes.push(
          fieldErrors.invalid(
            `${at}.issuer.audienceMatchPolicy`,
            policy,
            'audienceMatchPolicy must be empty or MatchAny for single audience',
          ),
        );
      }
    }
    const ca = j.issuer.certificateAuthority ?? '';
    if (ca !== '') causes.push(...caCauses(`${at}.issuer.certificateAuthority`, ca));

    // claimValidationRules
    let emailVerifiedUsed = false;
    const claimRules: ClaimValidationRule[] = [];
    const seenClaims = new Set<string>();
    const seenRuleExprs = new Set<string>();
    for (const [k, r] of (j.claimValidationRules ?? []).entries()) {
      const rat = `${at}.claimValidationRules[${k}]`;
      const claim = r.claim ?? '';
      const expression = r.expression ?? '';
      if (claim !== '' && expression !== '') {
        causes.push(fieldErrors.invalid(rat, claim, "claim and expression can't both be set"));
      } else if (claim === '' && expression === '') {
        causes.push(fieldErrors.required(rat, 'claim or expression is required'));
      } else if (claim !== '') {
        if ((r.message ?? '') !== '')
          causes.push(
            fieldErrors.invalid(`${rat}.message`, r.message, 'may not be specified when claim is set'),
          );
        if (seenClaims.has(claim)) causes.push(fieldErrors.duplicate(`${rat}.claim`, claim));
        seenClaims.add(claim);
        claimRules.push({ kind: 'claim', claim, requiredValue: r.requiredValue ?? '' });
      } else {
        if ((r.requiredValue ?? '') !== '') {
          causes.push(
            fieldErrors.invalid(
              `${rat}.requiredValue`,
              r.requiredValue,
              'may not be specified when expression is set',
            ),
          );
        }
        if (seenRuleExprs.has(expression)) {
          causes.push(fieldErrors.duplicate(`${rat}.expression`, expression));
          continue;
        }
        seenRuleExprs.add(expression);
        const program = compileAt(`${rat}.expression`, expression, claimsEnv, 'bool');
        if (program) claimRules.push({ kind: 'expression', program, message: r.message ?? '' });
        emailVerifiedUsed ||= usesEmailVerified(expression);
      }
    }

    // claimMappings
    const mapping = (
      field: string,
      m: { claim?: string | null; prefix?: string | null; expression?: string | null } | null | undefined,
      required: boolean,
    ): PrefixedClaimMapping | undefined => {
      const claim = m?.claim ?? '';
      const expression = m?.expression ?? '';
      if (claim !== '' && expression !== '') {
        causes.push(fieldErrors.invalid(field, '', "claim and expression can't both be set"));
        return undefined;
      }
      if (claim === '' && expression === '') {
        if (required) causes.push(fieldErrors.required(field, 'claim or expression is required'));
        return undefined;
      }
      if (expression !== '') {
        if (m?.prefix !== undefined && m?.prefix !== null) {
          causes.push(
            fieldErrors.invalid(`${field}.prefix`, m.prefix, 'may not be specified when expression is set'),
          );
        }
        const program = compileAt(`${field}.expression`, expression, claimsEnv);
        return program ? { kind: 'expression', program } : undefined;
      }
      if (m?.prefix === undefined || m?.prefix === null) {
        causes.push(
          fieldErrors.required(
            `${field}.prefix`,
            'prefix is required when claim is set. It can be set to an empty string to disable prefixing',
          ),
        );
        return undefined;
      }
      return { kind: 'claim', claim, prefix: m.prefix };
    };
    const cm = j.claimMappings;
    const username = mapping(`${at}.claimMappings.username`, cm.username, true);
    const groups = mapping(`${at}.claimMappings.groups`, cm.groups, false);
    const usernameExpr = cm.username?.expression ?? '';
    let uid: JwtAuthenticatorConfig['uid'];
    const uidClaim = cm.uid?.claim ?? '';
    const uidExpr = cm.uid?.expression ?? '';
    if (uidClaim !== '' && uidExpr !== '') {
      causes.push(
        fieldErrors.invalid(`${at}.claimMappings.uid`, '', "claim and expression can't both be set"),
      );
    } else if (uidExpr !== '') {
      const program = compileAt(`${at}.claimMappings.uid.expression`, uidExpr, claimsEnv);
      if (program) uid = { kind: 'expression', program };
    } else if (uidClaim !== '') {
      uid = { kind: 'claim', claim: uidClaim };
    }
    const extra: { key: string; program: Program }[] = [];
    const seenKeys = new Set<string>();
    for (const [k, e] of (cm.extra ?? []).entries()) {
      const eat = `${at}.claimMappings.extra[${k}]`;
      const key = e.key ?? '';
      causes.push(...domainPrefixedPathCauses(`${eat}.key`, key));
      if (key !== key.toLowerCase()) causes.push(fieldErrors.invalid(`${eat}.key`, key, 'must be lowercase'));
      if (isReservedKey(key, reserved)) {
        causes.push(
          fieldErrors.invalid(
            `${eat}.key`,
            key,
            `${reserved.slice(0, -1).join(', ')} and ${reserved.at(-1)} and their subdomains are reserved for system use`,
          ),
        );
      }
      if (seenKeys.has(key)) {
        causes.push(fieldErrors.duplicate(`${eat}.key`, key));
        continue;
      }
      seenKeys.add(key);
      const valueExpression = e.valueExpression ?? '';
      if (valueExpression === '') {
        causes.push(fieldErrors.required(`${eat}.valueExpression`));
        continue;
      }
      const program = compileAt(`${eat}.valueExpression`, valueExpression, claimsEnv);
      if (program) extra.push({ key, program });
      emailVerifiedUsed ||= usesEmailVerified(valueExpression);
    }
    emailVerifiedUsed ||= usesEmailVerified(usernameExpr);
    if (usernameExpr !== '' && usesEmail(usernameExpr) && !emailVerifiedUsed) {
      causes.push(
        fieldErrors.invalid(
          `${at}.claimMappings.username.expression`,
          usernameExpr,
          'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
        ),
      );
    }

    // userValidationRules
    const userRules: { program: Program; message: string }[] = [];
    const seenUserExprs = new Set<string>();
    for (const [k, r] of (j.userValidationRules ?? []).entries()) {
      const rat = `${at}.userValidationRules[${k}]`;
      const expression = r.expression ?? '';
      if (expression === '') {
        causes.push(fieldErrors.required(`${rat}.expression`));
        continue;
      }
      if (seenUserExprs.has(expression)) {
        causes.push(fieldErrors.duplicate(`${rat}.expression`, expression));
        continue;
      }
      seenUserExprs.add(expression);
      const program = compileAt(`${rat}.expression`, expression, userEnv, 'bool');
      if (program) userRules.push({ program, message: r.message ?? '' });
    }

    if (causes.length === before && username) {
      out.push({
        issuer: {
          url,
          ...(discoveryURL !== '' ? { discoveryURL } : {}),
          ...(ca !== '' ? { certificateAuthority: ca } : {}),
          audiences: [...audiences],
        },
        claimValidationRules: claimRules,
        username,
        ...(groups ? { groups } : {}),
        ...(uid ? { uid } : {}),
        extra,
        userValidationRules: userRules,
      });
    }
  }

  let anonymous: AnonymousConfigSection | undefined;
  if (parsed.anonymous) {
    const a = parsed.anonymous;
    if (options.anonymousConfigurable === false) {
      causes.push(
        fieldErrors.forbidden(
          'anonymous',
          'anonymous is not supported when AnonymousAuthConfigurableEndpoints feature gate is disabled',
        ),
      );
    }
    const conditions = a.conditions ?? [];
    if (!a.enabled && conditions.length > 0) {
      causes.push(
        fieldErrors.invalid(
          'anonymous.conditions',
          conditions,
          'enabled should be set to true when conditions are defined',
        ),
      );
    }
    const seen = new Set<string>();
    for (const [k, c] of conditions.entries()) {
      if (c.path === '') causes.push(fieldErrors.required(`anonymous.conditions[${k}].path`));
      else if (seen.has(c.path))
        causes.push(fieldErrors.duplicate(`anonymous.conditions[${k}].path`, c.path));
      seen.add(c.path);
    }
    anonymous = { enabled: a.enabled, conditions: conditions.map((c) => ({ path: c.path })) };
  }
  if (causes.length > 0) throw fail(causes);
  return { apiVersion: parsed.apiVersion, jwt: out, ...(anonymous ? { anonymous } : {}) };
}
