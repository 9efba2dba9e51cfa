/**
 * @orchard/schema — structural OpenAPI v3 schemas: validation, pruning, defaulting, merge markers,
 * and publishing OpenAPI v2/v3 documents. Pure: no Node built-ins.
 */
export type { StructuralSchema, ValidationRule } from './structural.js';
