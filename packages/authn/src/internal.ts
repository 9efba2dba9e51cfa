/**
 * @orchard/authn/internal — the configuration-file machinery that authz and the server share with
 * authn's own AuthenticationConfiguration: reading a versioned YAML/JSON document against its zod
 * schema, compiling its CEL expressions, reloading it on change with upstream's metrics, a plain
 * gauge, and a constant-time comparison. Not covered by semver; import `@orchard/authn` instead.
 */

export type { ConfigDocumentOptions } from './config-file.js';
export {
  compileConfigExpression,
  configSchemaCauses,
  formatFieldPath,
  parseConfigDocument,
  parseConfigSchema,
} from './config-file.js';
export type { ConfigFileReloader, ConfigFileReloaderOptions, ReloadMetrics } from './config-file-reloader.js';
export { createConfigFileReloader, createReloadMetrics } from './config-file-reloader.js';
export { constantTimeEqual } from './constant-time.js';
export type { Gauge } from './gauge.js';
export { createGauge } from './gauge.js';
