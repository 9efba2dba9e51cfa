/**
 * The structural schema: the flavor-independent form of an OpenAPI v3 schema that validation,
 * pruning, defaulting, the patch engine and the field manager all read. `fromOpenApi()` (see
 * openapi.ts) turns wire schemas with `x-orch-*` / `x-kubernetes-*` extensions (and, for built-in
 * types, `x-…-patch-strategy` / `x-…-patch-merge-key`) into this form; `toOpenApi()` goes back.
 *
 * Merge markers are already resolved here (spec doc 1 §2.7): a list with `patchStrategy: merge`
 * and no `listType` has `listType: 'map'` and `listMapKeys: [patchMergeKey]`.
 */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  /** Fields of a struct. */
  properties?: Record<string, StructuralSchema>;
  /** Values of a map (`true` = any value). */
  additionalProperties?: StructuralSchema | boolean;
  /** Elements of a list. */
  items?: StructuralSchema;
  required?: string[];
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  /** Value validations (no structure inside): the value must match all / any / exactly one / not this. */
  allOf?: StructuralSchema[];
  anyOf?: StructuralSchema[];
  oneOf?: StructuralSchema[];
  not?: StructuralSchema;

  /** `x-…-list-type`. Absent on a list = atomic (for custom resources) unless derived from patchStrategy. */
  listType?: 'atomic' | 'set' | 'map';
  /** `x-…-list-map-keys`, only with listType map. */
  listMapKeys?: string[];
  /** `x-…-map-type` for maps and structs. Absent = granular. */
  mapType?: 'atomic' | 'granular';
  /** `x-…-int-or-string`. */
  intOrString?: boolean;
  /** `x-…-preserve-unknown-fields`. */
  preserveUnknownFields?: boolean;
  /** `x-…-embedded-resource`: the value is an object with apiVersion/kind/metadata. */
  embeddedResource?: boolean;
  /** Strategic merge patch: `x-…-patch-strategy` (e.g. `merge`, `retainKeys`, `merge,retainKeys`, `replace`). */
  patchStrategy?: string;
  /** Strategic merge patch: `x-…-patch-merge-key`. */
  patchMergeKey?: string;
  /** `x-…-validations` (CEL rules), kept verbatim for @orchard/cel. */
  validations?: ValidationRule[];
  /** `x-…-group-version-kind` on top-level type schemas. */
  groupVersionKind?: { group: string; version: string; kind: string }[];
}

/** An `x-validations` CEL rule on a schema node. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * The declared schema of property `k`, from `properties`' own entries only: a field named
 * `__proto__` or `constructor` in client data is undeclared, never `Object.prototype`.
 */
export function propertySchema(s: StructuralSchema | undefined, k: string): StructuralSchema | undefined {
  const props = s?.properties;
  return props !== undefined && Object.hasOwn(props, k) ? props[k] : undefined;
}

/** The schema of field `k` inside a struct or map schema: its property, else the map's value schema. */
export function fieldSchema(s: StructuralSchema | undefined, k: string): StructuralSchema | undefined {
  if (!s) return undefined;
  return (
    propertySchema(s, k) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined)
  );
}
