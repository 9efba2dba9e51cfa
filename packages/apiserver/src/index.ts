/**
 * @orchard/apiserver — the reference API server: request-info resolution, REST handlers for every
 * verb, discovery, health, built-in resources, and the `orchard-apiserver` CLI.
 */
export type { ApiServer } from './server.js';
export { createApiServer } from './server.js';
export type { ApiServerOptions, TlsOptions, Logger } from './options.js';
export { defaultApiServerOptions } from './options.js';
export type { ResourceDefinition, ResourceStrategy, StrategyContext, SubresourceDefinition, UserInfo, Verb, VirtualCreate } from './registry/resource.js';
export { defineResource, allObjectVerbs } from './registry/resource.js';
export type { ResourceRegistry, RegistryChange } from './registry/registry.js';
export { createResourceRegistry } from './registry/registry.js';
export { builtinResources } from './registry/builtin/index.js';
export type { RequestInfo } from './request/request-info.js';
export { resolveRequestInfo } from './request/request-info.js';
export type { RequestQuery } from './request/query.js';
export type { RequestContext } from './context.js';
export type { WriteRequest, WriteStep, WriteOperation } from './handlers/write-pipeline.js';
export { WritePipeline } from './handlers/write-pipeline.js';
export { defaultWriteSteps } from './handlers/write-steps.js';
export type { ResponseConversion } from './codecs.js';
export type { ObjectKeyParts, ObjectWatchEvent } from './storage/object-store.js';
export { ObjectStore, UndecodableObjectError, isUndecodableObjectError } from './storage/object-store.js';
export { toApiError } from './errors.js';
export type { HealthCheck, HealthChecks, HealthEndpoint } from './health/health.js';
export type { VersionInfo } from './version.js';
export { versionInfo } from './version.js';
export type { LaunchOptions, LaunchedServer } from './launch.js';
export { launchApiServer } from './launch.js';
