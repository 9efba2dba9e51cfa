/**
 * @orchard/schema — structural OpenAPI v3 schemas: validation, pruning, defaulting, merge markers,
 * field validation (unknown and duplicate fields), and publishing OpenAPI v2/v3 documents.
 * Pure: no Node built-ins.
 */
export type { StructuralSchema, ValidationRule } from './structural.js';
export type { OpenApiSchema } from './openapi.js';
export { fromOpenApi, toOpenApi, resolveMarkers } from './openapi.js';
export type { FieldError } from './field-error.js';
export { fieldErrors, formatFieldError, toStatusCauses, formatValue } from './field-error.js';
export type { CheckStructuralOptions } from './check-structural.js';
export { checkStructural } from './check-structural.js';
export type { ValidateOptions } from './validate.js';
export { validate, jsonTypeOf, isValidPattern, isKnownFormat } from './validate.js';
export type { PruneOptions } from './prune.js';
export { prune } from './prune.js';
export { applyDefaults } from './defaults.js';
export type { YamlDuplicate } from './duplicates.js';
export {
  findDuplicateFieldsJson,
  scanJsonDuplicates,
  parseYamlWithDuplicates,
  countKeys,
  unknownFieldMessage,
  duplicateFieldMessage,
  yamlDuplicateMessage,
} from './duplicates.js';
export type { BuiltinType } from './builtin/index.js';
export {
  builtinSchema,
  builtinTypes,
  builtinGroup,
  objectMetaSchema,
  labelSelectorSchema,
  podSpecSchema,
  containerSchema,
  podTemplateSpecSchema,
} from './builtin/index.js';
export type { PublishedResource } from './publish.js';
export {
  buildOpenApiV3,
  buildOpenApiV3Index,
  buildOpenApiV2,
  schemaName,
  groupVersionPath,
  contentHash,
  acceptedPatchTypes,
  patchMediaTypes,
} from './publish.js';
