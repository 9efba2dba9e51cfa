import { type CelEnv, createEnv } from '@orchard/cel';
import { type FieldCause, type Flavor, fieldErrors, orchFlavor } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import type { AnonymousConfigSection } from './anonymous.js';
import { reservedDomains } from './authentication-config-checks.js';
import {
  type AuthenticationConfigFile,
  authenticationConfigFileSchema,
} from './authentication-config-file.js';
import { compileConfigExpression, parseConfigDocument, parseConfigSchema } from './config-file.js';
import { invalidConfiguration } from './errors.js';
import {
  type JwtAuthenticatorConfig,
  type JwtEntryContext,
  validateJwtAuthenticatorEntry,
} from './jwt-authenticator-config.js';

export type {
  ClaimValidationRule,
  JwtAuthenticatorConfig,
  PrefixedClaimMapping,
} from './jwt-authenticator-config.js';

/** Limits of doc 2 §2.5 / §8. */
export const maxJwtAuthenticators = 64;
/** A configuration file larger than this is refused before parsing. */
export const maxAuthenticationConfigBytes = 1 << 20;
/** The API versions of AuthenticationConfiguration release 1.32 reads. */
export const authenticationConfigVersions = ['v1beta1', 'v1alpha1'] as const;

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
  const parsed: AuthenticationConfigFile = parseConfigSchema(authenticationConfigFileSchema, raw, docOptions);
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
  const ctx: JwtEntryContext = {
    causes,
    compileAt,
    claimsEnv,
    userEnv,
    disallowed: new Set(options.disallowedIssuers ?? []),
    reserved: reservedDomains(flavor),
    seenIssuers: new Set<string>(),
    seenDiscovery: new Set<string>(),
  };
  const out: JwtAuthenticatorConfig[] = [];
  for (const [i, entry] of jwts.entries()) {
    const config = validateJwtAuthenticatorEntry(entry, `jwt[${i}]`, ctx);
    if (config) out.push(config);
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
