/**
 * The authentication flags' definitions: names and value types (upstream's), boolean-flag
 * normalisation, and the usage text. Reading their values is `authentication-flags.ts`.
 */

/** The authentication flags, with upstream's names (`parseArgs` options; booleans take `=true|false`). */
export const authenticationFlagOptions = {
  'anonymous-auth': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'token-auth-file': { type: 'string' },
  'enable-bootstrap-token-auth': { type: 'string' },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-signing-key-file': { type: 'string' },
  'service-account-issuer': { type: 'string', multiple: true },
  'service-account-lookup': { type: 'string' },
  'service-account-max-token-expiration': { type: 'string' },
  'api-audiences': { type: 'string' },
  'oidc-issuer-url': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-username-prefix': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-groups-prefix': { type: 'string' },
  'oidc-required-claim': { type: 'string', multiple: true },
  'oidc-ca-file': { type: 'string' },
  'oidc-signing-algs': { type: 'string' },
  'requestheader-client-ca-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'string' },
  'requestheader-username-headers': { type: 'string' },
  'requestheader-uid-headers': { type: 'string' },
  'requestheader-group-headers': { type: 'string' },
  'requestheader-extra-headers-prefix': { type: 'string' },
  'authentication-config': { type: 'string' },
  'authentication-token-webhook-config-file': { type: 'string' },
  'authentication-token-webhook-cache-ttl': { type: 'string' },
  'authentication-token-webhook-version': { type: 'string' },
} as const;

const booleanFlags = ['anonymous-auth', 'enable-bootstrap-token-auth', 'service-account-lookup'];

/** A bare boolean flag (`--anonymous-auth`) means `=true`, as Go's flag package reads it. */
export function normalizeBooleanFlags(argv: readonly string[]): string[] {
  return argv.map((a) =>
    booleanFlags.includes(a.replace(/^--/, '')) && a.startsWith('--') ? `${a}=true` : a,
  );
}
