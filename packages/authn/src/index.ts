/**
 * @orchard/authn — who is calling (spec doc 2 §2.1): the `Authenticator` interface, the union that
 * adds `system:authenticated` and falls back to anonymous, and the methods: client certificates, static
 * tokens, bootstrap tokens, service-account JWTs (jose, algorithm-pinned), OIDC flags (discovery + cached JWKS with
 * rotation, fetch injected), structured JWT authenticators (AuthenticationConfiguration with CEL claim
 * mappings and validation rules, reloaded on change) and the authenticating proxy.
 * Transport-free: the server verifies TLS and passes request attributes; lookups are injected readers.
 * The configuration-file machinery other Orchard packages share is in `@orchard/authn/internal`.
 */

export type { AnonymousConfigSection } from './anonymous.js';
export { resolveAnonymousOptions } from './anonymous.js';
export type {
  AuthenticationConfiguration,
  ClaimValidationRule,
  JwtAuthenticatorConfig,
  ParseAuthenticationConfigurationOptions,
  PrefixedClaimMapping,
} from './authentication-config.js';
export {
  authenticationConfigVersions,
  maxAuthenticationConfigBytes,
  maxJwtAuthenticators,
  parseAuthenticationConfiguration,
} from './authentication-config.js';
export type {
  AuthenticationConfigController,
  AuthenticationConfigControllerOptions,
  ReloadOutcome,
} from './authentication-config-controller.js';
export {
  authenticationConfigReloadsMetric,
  authenticationConfigReloadTimestampMetric,
  createAuthenticationConfigController,
  defaultAuthenticationConfigControllerOptions,
} from './authentication-config-controller.js';
export type {
  AuthenticationRequest,
  AuthenticationResult,
  Authenticator,
  TokenAuthenticator,
  VerifiedClientCertificate,
} from './authenticator.js';
export { headerValue, headerValues, noOpinion, userResult } from './authenticator.js';
export { createBearerTokenAuthenticator, parseBearerToken } from './bearer-token.js';
export type {
  BootstrapSecretReader,
  BootstrapTokenAuthenticatorOptions,
  BootstrapTokenSecret,
} from './bootstrap-token.js';
export {
  bootstrapGroupPattern,
  bootstrapTokenPattern,
  createBootstrapTokenAuthenticator,
  parseBootstrapToken,
} from './bootstrap-token.js';
export type { ReloadMetrics } from './config-file-reloader.js';
export type { AuthnErrorCode } from './errors.js';
export { AuthnError, isAuthnError } from './errors.js';
export type { Gauge } from './gauge.js';
export type { FetchLike, HttpsFetchOptions } from './https-fetch.js';
export { createHttpsFetch, defaultHttpsFetchOptions } from './https-fetch.js';
export type { JwtAuthenticatorOptions } from './jwt-authenticator.js';
export {
  createJwtAuthenticator,
  defaultJwtAuthenticatorOptions,
  jwtSigningAlgorithms,
  unverifiedIssuer,
} from './jwt-authenticator.js';
export type { OidcAuthenticatorOptions } from './oidc.js';
export { createOidcAuthenticator, oidcUsernamePrefix } from './oidc.js';
export type { RequestHeaderAuthenticatorOptions } from './request-header.js';
export {
  createRequestHeaderAuthenticator,
  defaultRequestHeaderAuthenticatorOptions,
} from './request-header.js';
export type {
  PinnedKey,
  ServiceAccountClaims,
  ServiceAccountLookup,
  ServiceAccountTokenAuthenticatorOptions,
  ServiceAccountTokenRequest,
} from './service-account.js';
export {
  createServiceAccountTokenAuthenticator,
  createServiceAccountTokenSigner,
} from './service-account.js';
export type { CachedDecision, TokenCache, TokenCacheOptions } from './token-cache.js';
export { createTokenCache, defaultTokenCacheOptions } from './token-cache.js';
export type { StaticTokenEntry } from './token-file.js';
export { createTokenFileAuthenticator, parseTokenFile } from './token-file.js';
export type {
  AnonymousOptions,
  UnionAuthenticator,
  UnionAuthenticatorOptions,
  UnionResult,
} from './union.js';
export {
  allAuthenticatedGroup,
  allUnauthenticatedGroup,
  anonymousUser,
  createUnionAuthenticator,
  defaultUnionAuthenticatorOptions,
} from './union.js';
export type { WebhookConnection } from './webhook-kubeconfig.js';
export { loadWebhookKubeconfig, parseWebhookKubeconfig } from './webhook-kubeconfig.js';
export type { WebhookTokenAuthenticatorOptions } from './webhook-token.js';
export {
  createWebhookTokenAuthenticator,
  defaultWebhookTokenAuthenticatorOptions,
} from './webhook-token.js';
export type { X509AuthenticatorOptions } from './x509.js';
export { createX509Authenticator, defaultX509AuthenticatorOptions } from './x509.js';
