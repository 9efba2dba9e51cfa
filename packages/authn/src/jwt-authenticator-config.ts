import type { CelEnv, Program } from '@orchard/cel';
import { type FieldCause, fieldErrors } from '@orchard/meta';
import {
  caCauses,
  domainPrefixedPathCauses,
  isReservedKey,
  urlCauses,
  usesEmail,
  usesEmailVerified,
} from './authentication-config-checks.js';
import type { JwtAuthenticatorEntry } from './authentication-config-file.js';

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

/**
 * What validating one `jwt[]` entry shares with the rest of the file: the causes found so far (each entry
 * adds to them), the CEL compiler that records a failed compilation as a cause, and the issuers and
 * discovery URLs earlier entries claimed (an issuer may appear once).
 */
export interface JwtEntryContext {
  readonly causes: FieldCause[];
  compileAt(field: string, expression: string, env: CelEnv, outputType?: string): Program | undefined;
  readonly claimsEnv: CelEnv;
  readonly userEnv: CelEnv;
  readonly disallowed: ReadonlySet<string>;
  readonly reserved: readonly string[];
  readonly seenIssuers: Set<string>;
  readonly seenDiscovery: Set<string>;
}

/**
 * Validates one `jwt[]` entry at path `at` (issuer, claimValidationRules, claimMappings,
 * userValidationRules, in that order), adding every bad field to `ctx.causes`; the compiled entry, or
 * undefined when it had a cause or no username mapping.
 */
export function validateJwtAuthenticatorEntry(
  entry: JwtAuthenticatorEntry,
  at: string,
  ctx: JwtEntryContext,
): JwtAuthenticatorConfig | undefined {
  const { causes, compileAt, claimsEnv, userEnv, disallowed, reserved, seenIssuers, seenDiscovery } = ctx;
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
    causes.push(fieldErrors.invalid(`${at}.claimMappings.uid`, '', "claim and expression can't both be set"));
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

  if (causes.length !== before || !username) return undefined;
  return {
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
  };
}
