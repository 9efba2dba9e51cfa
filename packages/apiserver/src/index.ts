/**
 * @orchard/apiserver — the reference API server: request-info resolution, REST handlers for every
 * verb, discovery, health, built-in resources, and the `orchard-apiserver` CLI.
 *
 * Exported: the composition root (`createApiServer`, `launchApiServer`, options and defaults) and its
 * extension points (resource definitions and the registry, write steps, filters, authenticators and
 * authorizers, health checks, storage). Handler internals (error mapping, deletion, request parsing)
 * stay inside.
 */

export type { AuditLogWriter, AuditLogWriterOptions } from './audit/log-writer.js';
export { createAuditLogWriter } from './audit/log-writer.js';
export type {
  AuditAttributes,
  AuditDecision,
  AuditLevel,
  AuditPolicy,
  AuditStage,
  GroupResources,
  PolicyRule,
} from './audit/policy.js';
export { AuditPolicyError, evaluatePolicy, parseAuditPolicy } from './audit/policy.js';
export { addAuditAnnotation } from './audit/record.js';
export type { AuditOptions } from './audit/server-audit.js';
export type {
  AuthenticationOptions,
  ServiceAccountAuthenticationOptions,
} from './authentication/authentication-options.js';
export { fetchWithCa } from './authentication/fetch-with-ca.js';
export { identityDomain } from './authentication/identity-domain.js';
export type {
  ServerAuthentication,
  TokenReviewOutcome,
} from './authentication/server-authentication.js';
export {
  generateServiceAccountSigningKeyPem,
  parseServiceAccountSigningKey,
  parseServiceAccountVerificationKeys,
} from './authentication/service-account-keys.js';
export type { ResponseConversion } from './codecs.js';
export type { RequestContext } from './context.js';
export type { NodeLifecycleSettings } from './controllers/node-lifecycle.js';
export { defaultNodeLifecycleSettings } from './controllers/node-lifecycle.js';
export type { CustomResourceConverter } from './crd/conversion.js';
export { setCustomResourceConverter } from './crd/conversion.js';
export type {
  FeatureGateName,
  FeatureGateOverrides,
  FeatureGateSpec,
  FeatureGates,
  FeatureStage,
} from './feature-gates.js';
export {
  defaultFeatureGates,
  FeatureGateError,
  featureEnabled,
  featureGateWarnings,
  knownFeatureGates,
  parseFeatureGates,
  resolveFeatureGates,
} from './feature-gates.js';
export type { AuthenticationFilterOptions } from './filters/authentication.js';
export { createFixedAuthenticator } from './filters/authentication.js';
export type {
  AuthorizationAttributes,
  AuthorizationDecision,
  AuthorizationResult,
  Authorizer,
} from './filters/authorization.js';
export { alwaysAllowAuthorizer } from './filters/authorization.js';
export type { Filter, FilterContext, Next } from './filters/filter.js';
export type { WriteOperation, WriteRequest, WriteStep } from './handlers/write-pipeline.js';
export { WritePipeline } from './handlers/write-pipeline.js';
export { defaultWriteSteps } from './handlers/write-steps.js';
export type { HealthCheck, HealthChecks, HealthEndpoint } from './health/health.js';
export type { LaunchedServer, LaunchOptions } from './launch.js';
export { launchApiServer } from './launch.js';
export type { PropagationPolicy } from './lifecycle/delete-options.js';
export type { DeleteOutcome, DeleteTarget } from './lifecycle/deletion.js';
export type { Lifecycle } from './lifecycle/lifecycle.js';
export type { MetricDefinition, ServerMetrics } from './metrics/server-metrics.js';
export { createServerMetrics, defineMetric, requestDurationBuckets } from './metrics/server-metrics.js';
export type {
  MetricStability,
  MetricStabilityOptions,
  MetricVisibility,
  StabilityLevel,
} from './metrics/stability.js';
export { metricVisibility } from './metrics/stability.js';
export type { ApiServerOptions, AuthorizationWebhookFlags, Logger, TlsOptions } from './options.js';
export { defaultApiServerOptions } from './options.js';
export { builtinResources } from './registry/builtin/index.js';
export type { RegistryChange, ResourceRegistry } from './registry/registry.js';
export { createResourceRegistry } from './registry/registry.js';
export type {
  ResourceDefinition,
  ResourceStrategy,
  StrategyContext,
  SubresourceDefinition,
  UserInfo,
  Verb,
  VersionConversion,
  VersionLifecycle,
  VirtualCreate,
} from './registry/resource.js';
export { allObjectVerbs, defineResource } from './registry/resource.js';
export type { RequestQuery } from './request/query.js';
export type { RequestInfo } from './request/request-info.js';
export type { ApiServer } from './server.js';
export { createApiServer } from './server.js';
export type { Compactor, CompactorOptions, CompactorTimers } from './storage/compactor.js';
export { createCompactor, systemCompactorTimers } from './storage/compactor.js';
export type { ObjectKeyParts, ObjectWatchEvent } from './storage/object-store.js';
export { isUndecodableObjectError, ObjectStore, UndecodableObjectError } from './storage/object-store.js';
export type { OpenedStorage, StorageBackend, StorageOptions } from './storage/open-storage.js';
export {
  defaultStorageOptions,
  isStorageBackend,
  openStorage,
  StorageOpenError,
  sqliteDatabasePath,
  storageBackends,
} from './storage/open-storage.js';
export type { WatchCacheSettings } from './storage/watch-caches.js';
export { defaultWatchCacheSettings, WatchCaches } from './storage/watch-caches.js';
export type { VersionInfo } from './version.js';
export { versionInfo } from './version.js';
export type { Deprecation } from './versions/deprecation.js';
export { deprecationOf } from './versions/deprecation.js';
export type { Release, VersionStability } from './versions/release.js';
export { parseRelease, stabilityOf } from './versions/release.js';
export type { RemovedApi } from './versions/removed-apis.js';
export { removedApis } from './versions/removed-apis.js';
export type { RuntimeConfig, RuntimeConfigEntry } from './versions/runtime-config.js';
export { parseRuntimeConfig, RuntimeConfigError } from './versions/runtime-config.js';
export type { ServedVersionsOptions } from './versions/served.js';
export { servedResources } from './versions/served.js';
