import type {
  AnonymousOptions,
  Authenticator,
  OidcAuthenticatorOptions,
  PinnedKey,
  RequestHeaderAuthenticatorOptions,
  StaticTokenEntry,
  TokenAuthenticator,
} from '@orchard/authn';

/** Service-account tokens (doc 2 §5.2): verification, signing and `--service-account-lookup`. */
export interface ServiceAccountAuthenticationOptions {
  /** `--service-account-key-file` keys (each pinned to its algorithm); the signing key's public half is added. */
  readonly keys: readonly PinnedKey[];
  /** `--service-account-signing-key-file`: without it the `token` sub-resource answers 404 as upstream. */
  readonly signingKey?: PinnedKey;
  /** `--service-account-issuer` (repeatable): the first is written into new tokens, all are accepted. */
  readonly issuers: readonly string[];
  /** `--api-audiences`: audiences a token must carry to authenticate to this server. Default: the issuers. */
  readonly apiAudiences?: readonly string[];
  /** `--service-account-lookup`: the account and bound object must still exist (same uid). Default true. */
  readonly lookup?: boolean;
  /** `--service-account-max-token-expiration` in seconds. Default: none (upstream's default). */
  readonly maxExpirationSeconds?: number;
}

/**
 * The authentication methods the server runs (doc 2 §5), built into one `@orchard/authn` union in
 * upstream's order: authenticating proxy, client certificates, then bearer tokens (static file,
 * service accounts, bootstrap, OIDC, then `tokenAuthenticators`). Every field is off when absent
 * except client certificates (on whenever `tls.clientCa` is set) and anonymous (on).
 */
export interface AuthenticationOptions {
  /** `--token-auth-file`, parsed (`parseTokenFile`). */
  readonly tokenFile?: readonly StaticTokenEntry[];
  /** `--enable-bootstrap-token-auth`. Default false. */
  readonly bootstrapTokens?: boolean;
  readonly serviceAccounts?: ServiceAccountAuthenticationOptions;
  /** `--oidc-*`. */
  readonly oidc?: OidcAuthenticatorOptions;
  /** `--requestheader-*`; the CA is `tls.requestHeaderClientCa`. On when that CA is set. */
  readonly requestHeader?: RequestHeaderAuthenticatorOptions;
  /** `--anonymous-auth` (default enabled on every path). */
  readonly anonymous?: AnonymousOptions;
  /** More token methods tried after the built-in ones (webhook, structured JWT authenticators). */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** More request methods tried after the built-in ones. */
  readonly authenticators?: readonly Authenticator[];
}
