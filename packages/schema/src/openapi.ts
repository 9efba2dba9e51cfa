/**
 * Conversions between wire OpenAPI v3 schemas (with the flavor's `x-…-*` extensions) and the
 * flavor-independent `StructuralSchema`.
 */
import type { Flavor } from '@orchard/meta';
import { cloneJson, isJsonObject, setOwn } from '@orchard/meta/internal';
import type { StructuralSchema, ValidationRule } from './structural.js';

/** A wire OpenAPI v3 schema object (JSON form). */
export type OpenApiSchema = Record<string, unknown>;

const plainKeys = [
  'type',
  'description',
  'required',
  'nullable',
  'default',
  'enum',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'multipleOf',
] as const;

/**
 * Reads a wire schema into the structural form. Merge markers are resolved as spec doc 1 §2.7
 * says: a list with `patch-strategy` containing `merge` and no `list-type` becomes a map list keyed
 * by its `patch-merge-key`; a list of scalars with `merge` becomes a set. `$ref` is not followed
 * (structural schemas have none); unknown keywords are ignored.
 */
export function fromOpenApi(schema: OpenApiSchema, flavor: Flavor): StructuralSchema {
  const x = (n: string) => schema[flavor.ext(n)];
  const out: StructuralSchema = {};
  for (const k of plainKeys) {
    if (schema[k] !== undefined) (out as Record<string, unknown>)[k] = cloneJson(schema[k]);
  }
  if (isJsonObject(schema.properties)) {
    out.properties = {};
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (isJsonObject(sub)) setOwn(out.properties, name, fromOpenApi(sub, flavor));
    }
  }
  if (typeof schema.additionalProperties === 'boolean')
    out.additionalProperties = schema.additionalProperties;
  else if (isJsonObject(schema.additionalProperties))
    out.additionalProperties = fromOpenApi(schema.additionalProperties, flavor);
  if (isJsonObject(schema.items)) out.items = fromOpenApi(schema.items, flavor);
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = schema[j];
    if (Array.isArray(v)) out[j] = v.filter(isJsonObject).map((s) => fromOpenApi(s, flavor));
  }
  if (isJsonObject(schema.not)) out.not = fromOpenApi(schema.not, flavor);

  const listType = x('list-type');
  if (listType === 'atomic' || listType === 'set' || listType === 'map') out.listType = listType;
  const keys = x('list-map-keys');
  if (Array.isArray(keys)) out.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
  const mapType = x('map-type');
  if (mapType === 'atomic' || mapType === 'granular') out.mapType = mapType;
  if (x('int-or-string') === true) out.intOrString = true;
  if (x('preserve-unknown-fields') === true) out.preserveUnknownFields = true;
  if (x('embedded-resource') === true) out.embeddedResource = true;
  if (typeof x('patch-strategy') === 'string') out.patchStrategy = x('patch-strategy') as string;
  if (typeof x('patch-merge-key') === 'string') out.patchMergeKey = x('patch-merge-key') as string;
  const validations = x('validations');
  if (Array.isArray(validations))
    out.validations = validations.filter(isJsonObject) as unknown as ValidationRule[];
  const gvk = x('group-version-kind');
  if (Array.isArray(gvk))
    out.groupVersionKind = gvk.filter(isJsonObject) as StructuralSchema['groupVersionKind'];
  return resolveMarkers(out);
}

/**
 * Applies the §2.7 rule in place: `patchStrategy` with `merge` and no `listType` reads as
 * `listType: map` keyed by `patchMergeKey` (or `set` for scalar items without a merge key).
 */
export function resolveMarkers(s: StructuralSchema): StructuralSchema {
  if (s.type === 'array' && s.listType === undefined && s.patchStrategy?.split(',').includes('merge')) {
    if (s.patchMergeKey) {
      s.listType = 'map';
      s.listMapKeys = [s.patchMergeKey];
    } else if (s.items && s.items.type !== 'object') {
      s.listType = 'set';
    }
  }
  return s;
}

/** Writes the structural form back as a wire schema with the flavor's extension names. */
export function toOpenApi(s: StructuralSchema, flavor: Flavor): OpenApiSchema {
  const out: OpenApiSchema = {};
  if (s.description !== undefined) out.description = s.description;
  if (s.type !== undefined) out.type = s.type;
  for (const k of plainKeys) {
    if (k === 'type' || k === 'description') continue;
    const v = (s as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = cloneJson(v);
  }
  if (s.properties) {
    const props: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(s.properties)) props[name] = toOpenApi(sub, flavor);
    out.properties = props;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties =
      typeof s.additionalProperties === 'boolean'
        ? s.additionalProperties
        : toOpenApi(s.additionalProperties, flavor);
  }
  if (s.items) out.items = toOpenApi(s.items, flavor);
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = s[j];
    if (v) out[j] = v.map((x) => toOpenApi(x, flavor));
  }
  if (s.not) out.not = toOpenApi(s.not, flavor);
  if (s.listType !== undefined) out[flavor.ext('list-type')] = s.listType;
  if (s.listMapKeys !== undefined) out[flavor.ext('list-map-keys')] = [...s.listMapKeys];
  if (s.mapType !== undefined) out[flavor.ext('map-type')] = s.mapType;
  if (s.intOrString) out[flavor.ext('int-or-string')] = true;
  if (s.preserveUnknownFields) out[flavor.ext('preserve-unknown-fields')] = true;
  if (s.embeddedResource) out[flavor.ext('embedded-resource')] = true;
  if (s.patchStrategy !== undefined) out[flavor.ext('patch-strategy')] = s.patchStrategy;
  if (s.patchMergeKey !== undefined) out[flavor.ext('patch-merge-key')] = s.patchMergeKey;
  if (s.validations !== undefined) out[flavor.ext('validations')] = cloneJson(s.validations);
  if (s.groupVersionKind !== undefined) out[flavor.ext('group-version-kind')] = cloneJson(s.groupVersionKind);
  return out;
}
