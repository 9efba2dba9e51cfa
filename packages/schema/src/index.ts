/**
 * @orchard/schema — structural OpenAPI v3 schemas: validation, pruning, defaulting, merge markers,
 * field validation (unknown and duplicate fields), and publishing OpenAPI v2/v3 documents.
 * Pure: no Node built-ins.
 */

export type { BuiltinType } from './builtin/index.js';
export { builtinSchema } from './builtin/index.js';
export type { CheckStructuralOptions } from './check-structural.js';
export { checkStructural } from './check-structural.js';
export { applyDefaults } from './defaults.js';
export { findDuplicateFieldsJson } from './duplicates.js';
export type { FieldError } from './field-error.js';
export { fieldErrors, formatFieldError, toStatusCauses } from './field-error.js';
export type { OpenApiSchema } from './openapi.js';
export { fromOpenApi, resolveMarkers, toOpenApi } from './openapi.js';
export type { PruneOptions } from './prune.js';
export { prune } from './prune.js';
export type { PublishedResource } from './publish.js';
export { acceptedPatchTypes, buildOpenApiV2, buildOpenApiV3, buildOpenApiV3Index } from './publish.js';
export type { StructuralSchema, ValidationRule } from './structural.js';
export { fieldSchema, propertySchema } from './structural.js';
export type { ValidateOptions } from './validate.js';
export { validate } from './validate.js';
