import { cloneJson, getOwn, setOwn } from '@orchard/meta/internal';
/**
 * Defaulting from schema `default` values, as for custom resources: a null in a field that is not
 * `nullable` is dropped first, then a missing field whose schema has a default gets a copy of it;
 * defaults apply top-down, so a defaulted object is itself defaulted inside.
 */
import { fieldSchema, type StructuralSchema } from './structural.js';

/** Applies defaults IN PLACE and returns the value (a missing root is not defaulted). */
export function applyDefaults<T>(value: T, schema: StructuralSchema): T {
  walk(value, schema);
  return value;
}

function walk(v: unknown, s: StructuralSchema | undefined): void {
  if (!s || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    if (s.items) for (const x of v) walk(x, s.items);
    return;
  }
  const o = v as Record<string, unknown>;
  if (s.properties) {
    for (const [k, prop] of Object.entries(s.properties)) {
      // A null in a non-nullable field is dropped before defaulting (as for custom resources upstream).
      if (getOwn(o, k) === null && !prop.nullable) delete o[k];
      if (prop.default !== undefined && getOwn(o, k) === undefined) setOwn(o, k, cloneJson(prop.default));
    }
  }
  const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  if (values && !values.nullable) {
    for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  }
  for (const k of Object.keys(o)) {
    const prop = fieldSchema(s, k);
    walk(o[k], prop);
  }
}
