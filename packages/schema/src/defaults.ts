/**
 * Defaulting from schema `default` values, as for custom resources: a missing field (or a null
 * one in a non-nullable field) whose schema has a default gets a copy of it; defaults apply
 * top-down, so a defaulted object is itself defaulted inside.
 */
import type { StructuralSchema } from './structural.js';

/** Applies defaults IN PLACE and returns the value (a missing root is not defaulted). */
export function applyDefaults<T>(value: T, schema: StructuralSchema): T {
  walk(value, schema);
  return value;
}

function clone<T>(v: T): T {
  return v === null || typeof v !== 'object' ? v : (JSON.parse(JSON.stringify(v)) as T);
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
      if (prop.default === undefined) continue;
      if (o[k] === undefined || (o[k] === null && !prop.nullable)) o[k] = clone(prop.default);
    }
  }
  for (const k of Object.keys(o)) {
    const prop =
      s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    walk(o[k], prop);
  }
}
