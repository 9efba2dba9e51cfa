/**
 * Pruning of unknown fields (what custom resources get on every write, and what the strict
 * decoder of built-in types reports): fields a schema does not declare are removed, unless the
 * schema preserves unknown fields. The removed paths are the `unknown field "<path>"` list of
 * field validation.
 */
import { isJsonObject } from '@orchard/meta/internal';

import { objectMetaSchema } from './builtin/object-meta.js';
import { indexPath, joinPath } from './field-error.js';
import { propertySchema, type StructuralSchema } from './structural.js';

/**
 * Options of `prune`: whether the value is a resource root, the schema of its metadata and the path
 * prefix.
 */
export interface PruneOptions {
  /**
   * The value is a whole resource (default true): `apiVersion` and `kind` are kept and
   * `metadata` is pruned against `metadataSchema`, whatever the schema says of them.
   */
  isResourceRoot?: boolean;
  /** Schema of `metadata` at resource roots and embedded resources (default: ObjectMeta). */
  metadataSchema?: StructuralSchema;
  /** Path prefix of the value. */
  path?: string;
}

/**
 * Removes unknown fields from `value` IN PLACE and returns their paths, in document order
 * (`spec.foo`, `spec.containers[0].bogus`).
 */
export function prune(value: unknown, schema: StructuralSchema, options: PruneOptions = {}): string[] {
  const removed: string[] = [];
  const meta = options.metadataSchema ?? objectMetaSchema;
  walk(value, schema, options.path ?? '', options.isResourceRoot ?? true, meta, removed);
  return removed;
}

function walk(
  v: unknown,
  s: StructuralSchema | undefined,
  path: string,
  isRoot: boolean,
  meta: StructuralSchema,
  removed: string[],
): void {
  if (Array.isArray(v)) {
    if (!s) return;
    const items = s.items;
    for (let i = 0; i < v.length; i++) walk(v[i], items, indexPath(path, i), false, meta, removed);
    return;
  }
  if (!isJsonObject(v)) return;
  if (!s) return;
  const root = isRoot || s.embeddedResource === true;
  for (const k of Object.keys(v)) {
    const p = joinPath(path, k);
    if (root && (k === 'apiVersion' || k === 'kind')) continue;
    if (root && k === 'metadata') {
      if (isJsonObject(v[k])) walk(v[k], meta, p, false, meta, removed);
      continue;
    }
    const prop = propertySchema(s, k);
    if (prop) {
      walk(v[k], prop, p, false, meta, removed);
    } else if (typeof s.additionalProperties === 'object') {
      walk(v[k], s.additionalProperties, p, false, meta, removed);
    } else if (s.additionalProperties === true || s.preserveUnknownFields) {
      // kept as is: nothing below is known, nothing is pruned
    } else if (s.properties || s.type === 'object' || root) {
      delete v[k];
      removed.push(p);
    }
  }
}
