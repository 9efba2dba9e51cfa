import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AuthenticationConfigController,
  createAuthenticationConfigController,
  createWebhookTokenAuthenticator,
  isAuthnError,
  loadWebhookKubeconfig,
  type OidcAuthenticatorOptions,
  type PinnedKey,
  parseTokenFile,
  resolveAnonymousOptions,
  type TokenAuthenticator,
} from '@orchard/authn';
import type { Flavor } from '@orchard/meta';
import { parseDuration } from '../duration.js';
import { type FeatureGateOverrides, featureEnabled } from '../feature-gates.js';
import { authenticationFlagOptions } from './authentication-flag-definitions.js';
import type { AuthenticationOptions } from './authentication-options.js';
import { parseCaBundle } from './client-certificate.js';
import { fetchWithCa } from './fetch-with-ca.js';
import {
  generateServiceAccountSigningKeyPem,
  parseServiceAccountSigningKey,
  parseServiceAccountVerificationKeys,
} from './service-account-keys.js';

export {
  authenticationFlagOptions,
  normalizeBooleanFlags,
} from './authentication-flag-definitions.js';

export interface LoadedAuthentication {
  readonly authentication: AuthenticationOptions;
  /** `--client-ca-file` contents, when given. */
  readonly clientCaPem?: string;
  readonly requestHeaderClientCaPem?: string;
  /** The `--authentication-config` controller (polling the file), when given. */
  readonly authenticationConfig?: AuthenticationConfigController;
  /** Start-up lines for the log (generated key, example file). */
  readonly notes: readonly string[];
}

type FlagValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** Go's strconv.ParseBool. */
function parseBool(flag: string, v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new Error(
    `invalid argument "${v}" for "--${flag}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`,
  );
}

const list = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');

async function readFlagFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(
      `--${flag}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

/** The example `--token-auth-file` the CLI writes (never loaded unless named by the flag). */
export const staticTokenExample = `# Static tokens for --token-auth-file (doc 2 §5.2): token,user,uid,"group1,group2"
# Generated as an example; pass this file with --token-auth-file to turn the tokens on.
`;

/**
 * Reads the authentication flags into server options. Every error names the flag and, for files,
 * the file and line. `stateDir` is where a generated service-account signing key is kept (reused on
 * restart) and the static-token example is written.
 */
export async function loadAuthenticationFlags(
  values: FlagValues,
  context: {
    readonly flavor: Flavor;
    readonly stateDir: string;
    readonly randomToken?: () => string;
    readonly featureGates?: FeatureGateOverrides;
    /** How often `--authentication-config` is checked for changes, ms (default 5 s). */
    readonly authenticationConfigPollMs?: number;
  },
): Promise<LoadedAuthentication> {
  const str = (flag: string): string | undefined => {
    const v = values[flag];
    return typeof v === 'string' ? v : undefined;
  };
  const strs = (flag: string): string[] => {
    const v = values[flag];
    return Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
  };
  const bool = (flag: string, dflt: boolean): boolean => {
    const v = str(flag);
    return v === undefined ? dflt : parseBool(flag, v);
  };
  const notes: string[] = [];
  const out: {
    -readonly [K in keyof AuthenticationOptions]: AuthenticationOptions[K];
  } = {};

  let clientCaPem: string | undefined;
  const clientCaFile = str('client-ca-file');
  if (clientCaFile !== undefined) {
    clientCaPem = await readFlagFile('client-ca-file', clientCaFile);
    parseCaBundle(clientCaPem, `--client-ca-file ${clientCaFile}`);
  }

  const tokenFile = str('token-auth-file');
  if (tokenFile !== undefined) {
    const text = await readFlagFile('token-auth-file', tokenFile);
    out.tokenFile = wrapAuthn(() => parseTokenFile(text, tokenFile));
  }
  if (bool('enable-bootstrap-token-auth', false)) out.bootstrapTokens = true;

  // Service accounts: a signing key (given, or generated and kept in stateDir) and verification keys.
  const issuers = strs('service-account-issuer').flatMap((v) => list(v) ?? []);
  if (issuers.length === 0)
    issuers.push(
      context.flavor.name === 'kubernetes'
        ? 'https://kubernetes.default.svc.cluster.local'
        : 'https://orch.default.svc.cluster.local',
    );
  // As upstream: an issuer with a colon must be a URL.
  for (const iss of issuers) {
    if (iss.includes(':') && !URL.canParse(iss))
      throw new Error(
        `--service-account-issuer: Invalid value: "${iss}": must be a valid URL when it contains a colon`,
      );
  }
  let signingFile = str('service-account-signing-key-file');
  if (signingFile === undefined) {
    signingFile = join(context.stateDir, 'service-account-signing.key');
    if (!existsSync(signingFile)) {
      await mkdir(context.stateDir, { recursive: true });
      await writeFile(signingFile, generateServiceAccountSigningKeyPem(), { mode: 0o600 });
      notes.push(`generated a service-account signing key at ${signingFile}`);
    } else notes.push(`reusing the service-account signing key at ${signingFile}`);
  }
  const signingKey = parseServiceAccountSigningKey(
    await readFlagFile('service-account-signing-key-file', signingFile),
    signingFile,
  );
  const keys: PinnedKey[] = [];
  for (const f of strs('service-account-key-file'))
    keys.push(...parseServiceAccountVerificationKeys(await readFlagFile('service-account-key-file', f), f));
  const maxExp = str('service-account-max-token-expiration');
  let maxExpirationSeconds: number | undefined;
  if (maxExp !== undefined) {
    maxExpirationSeconds = Math.floor(parseDuration(maxExp) / 1000);
    if (maxExpirationSeconds < 3600)
      throw new Error(
        `--service-account-max-token-expiration: Invalid value: "${maxExp}": must be at least 1h`,
      );
  }
  const apiAudiences = list(str('api-audiences'));
  out.serviceAccounts = {
    keys,
    signingKey,
    issuers,
    lookup: bool('service-account-lookup', true),
    ...(apiAudiences && apiAudiences.length > 0 ? { apiAudiences } : {}),
    ...(maxExpirationSeconds !== undefined ? { maxExpirationSeconds } : {}),
  };

  const oidcFlags = Object.keys(authenticationFlagOptions).filter(
    (f) => f.startsWith('oidc-') && values[f] !== undefined,
  );
  const authnConfigFile = str('authentication-config');
  if (authnConfigFile !== undefined && oidcFlags.length > 0)
    throw new Error(
      `--authentication-config and ${oidcFlags.map((f) => `--${f}`).join(', ')} are mutually exclusive: configure JWT authenticators in the file`,
    );
  if (oidcFlags.length > 0) {
    const issuerUrl = str('oidc-issuer-url');
    const clientId = str('oidc-client-id');
    if (issuerUrl === undefined || clientId === undefined)
      throw new Error(
        `--oidc-issuer-url and --oidc-client-id are both required when any --oidc-* flag is given (got ${oidcFlags.map((f) => `--${f}`).join(', ')})`,
      );
    const requiredClaims: Record<string, string> = Object.create(null);
    for (const kv of strs('oidc-required-claim')) {
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new Error(`--oidc-required-claim: Invalid value: "${kv}": must be key=value`);
      requiredClaims[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    const caFile = str('oidc-ca-file');
    let fetch: OidcAuthenticatorOptions['fetch'];
    if (caFile !== undefined) {
      const ca = await readFlagFile('oidc-ca-file', caFile);
      parseCaBundle(ca, `--oidc-ca-file ${caFile}`);
      fetch = fetchWithCa(ca);
    }
    const algs = list(str('oidc-signing-algs'));
    const supported = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];
    for (const a of algs ?? [])
      if (!supported.includes(a))
        throw new Error(`--oidc-signing-algs: Invalid value: "${a}": supported ${supported.join(', ')}`);
    const oidc: OidcAuthenticatorOptions = {
      issuerUrl,
      clientId,
      ...(str('oidc-username-claim') !== undefined ? { usernameClaim: str('oidc-username-claim') } : {}),
      ...(str('oidc-username-prefix') !== undefined ? { usernamePrefix: str('oidc-username-prefix') } : {}),
      ...(str('oidc-groups-claim') !== undefined ? { groupsClaim: str('oidc-groups-claim') } : {}),
      ...(str('oidc-groups-prefix') !== undefined ? { groupsPrefix: str('oidc-groups-prefix') } : {}),
      ...(Object.keys(requiredClaims).length > 0 ? { requiredClaims: { ...requiredClaims } } : {}),
      ...(algs && algs.length > 0 ? { signingAlgs: algs } : {}),
      ...(fetch ? { fetch } : {}),
    } as OidcAuthenticatorOptions;
    out.oidc = oidc;
  }

  let requestHeaderClientCaPem: string | undefined;
  const rhCa = str('requestheader-client-ca-file');
  const rhFlags = Object.keys(authenticationFlagOptions).filter(
    (f) => f.startsWith('requestheader-') && f !== 'requestheader-client-ca-file' && values[f] !== undefined,
  );
  if (rhCa === undefined && rhFlags.length > 0)
    throw new Error(
      `--requestheader-client-ca-file is required with ${rhFlags.map((f) => `--${f}`).join(', ')}`,
    );
  if (rhCa !== undefined) {
    requestHeaderClientCaPem = await readFlagFile('requestheader-client-ca-file', rhCa);
    parseCaBundle(requestHeaderClientCaPem, `--requestheader-client-ca-file ${rhCa}`);
    const pick = (flag: string) => list(str(flag));
    const usernameHeaders = pick('requestheader-username-headers');
    const uidHeaders = pick('requestheader-uid-headers');
    const groupHeaders = pick('requestheader-group-headers');
    const extraHeaderPrefixes = pick('requestheader-extra-headers-prefix');
    const allowedNames = pick('requestheader-allowed-names');
    out.requestHeader = {
      ...(usernameHeaders ? { usernameHeaders } : {}),
      ...(uidHeaders ? { uidHeaders } : {}),
      ...(groupHeaders ? { groupHeaders } : {}),
      ...(extraHeaderPrefixes ? { extraHeaderPrefixes } : {}),
      ...(allowedNames ? { allowedNames } : {}),
    };
  }
  const anonymousFlag = str('anonymous-auth') === undefined ? undefined : bool('anonymous-auth', true);
  out.anonymous = { enabled: anonymousFlag ?? true };

  // Token plugins, tried after the built-in token methods: structured JWT authenticators, then the webhook.
  const tokenPlugins: TokenAuthenticator[] = [];
  let authenticationConfig: AuthenticationConfigController | undefined;
  if (authnConfigFile !== undefined) {
    if (!featureEnabled(context.featureGates, 'StructuredAuthenticationConfiguration'))
      throw new Error(
        '--authentication-config: the StructuredAuthenticationConfiguration feature gate is disabled',
      );
    authenticationConfig = wrapAuthn(() =>
      createAuthenticationConfigController({
        path: authnConfigFile,
        parse: {
          flavor: context.flavor,
          disallowedIssuers: issuers,
          anonymousConfigurable: featureEnabled(context.featureGates, 'AnonymousAuthConfigurableEndpoints'),
        },
        ...(context.authenticationConfigPollMs !== undefined
          ? { pollIntervalMs: context.authenticationConfigPollMs }
          : {}),
      }),
    );
    const section = authenticationConfig.configuration.anonymous;
    out.anonymous = wrapAuthn(() =>
      resolveAnonymousOptions(
        anonymousFlag,
        section ? { enabled: section.enabled, conditions: section.conditions ?? [] } : undefined,
      ),
    );
    tokenPlugins.push(authenticationConfig);
    notes.push(
      `authentication config ${authnConfigFile}: ${authenticationConfig.configuration.jwt.length} JWT authenticators, reloaded on change`,
    );
  }
  const webhookFile = str('authentication-token-webhook-config-file');
  const webhookOnly = [
    'authentication-token-webhook-cache-ttl',
    'authentication-token-webhook-version',
  ].filter((f) => values[f] !== undefined);
  if (webhookFile === undefined && webhookOnly.length > 0)
    throw new Error(
      `--authentication-token-webhook-config-file is required with ${webhookOnly.map((f) => `--${f}`).join(', ')}`,
    );
  if (webhookFile !== undefined) {
    const ttl = str('authentication-token-webhook-cache-ttl');
    let cacheTtlMs = 120_000;
    if (ttl !== undefined) {
      try {
        cacheTtlMs = parseDuration(ttl);
      } catch (e) {
        throw new Error(
          `--authentication-token-webhook-cache-ttl: Invalid value: "${ttl}": ${(e as Error).message}`,
        );
      }
    }
    const version = str('authentication-token-webhook-version') ?? 'v1';
    if (version !== 'v1' && version !== 'v1beta1')
      throw new Error(
        `--authentication-token-webhook-version: Unsupported value: "${version}": supported values: "v1", "v1beta1"`,
      );
    const connection = wrapAuthn(() => loadWebhookKubeconfig(webhookFile));
    tokenPlugins.push(
      createWebhookTokenAuthenticator({
        connection,
        cacheTtlMs,
        version,
        flavor: context.flavor,
        audiences: apiAudiences && apiAudiences.length > 0 ? apiAudiences : issuers,
      }),
    );
    notes.push(`token webhook ${connection.server} (TokenReview ${version}, cache ${cacheTtlMs / 1000}s)`);
  }
  if (tokenPlugins.length > 0) out.tokenAuthenticators = tokenPlugins;

  const example = join(context.stateDir, 'static-tokens.example.csv');
  if (!existsSync(example)) {
    await mkdir(context.stateDir, { recursive: true });
    const token = context.randomToken?.() ?? randomHex(32);
    await writeFile(example, `${staticTokenExample}${token},jane,jane-uid,"developers,viewers"\n`, {
      mode: 0o600,
    });
    notes.push(`wrote a static-token example to ${example} (use it with --token-auth-file)`);
  }
  return {
    authentication: out,
    ...(clientCaPem !== undefined ? { clientCaPem } : {}),
    ...(requestHeaderClientCaPem !== undefined ? { requestHeaderClientCaPem } : {}),
    ...(authenticationConfig ? { authenticationConfig } : {}),
    notes,
  };
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}

/** Runs an @orchard/authn parser, rethrowing its configuration error as a plain start-up error. */
function wrapAuthn<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isAuthnError(e)) throw new Error(e.message);
    throw e;
  }
}
