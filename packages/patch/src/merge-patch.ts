/**
 * JSON Merge Patch (RFC 7386, `application/merge-patch+json`).
 */
import { getOwn, setOwn } from '@orchard/meta';
import { cloneJson } from './clone.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Returns `target` with `patch` merged in (RFC 7386 §2): a non-object patch replaces the target;
 * in an object patch, `null` removes a member and other members merge recursively. The inputs
 * are not mutated; untouched subtrees of `target` are shared with the result.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, applyMergePatch(getOwn(out, k), v));
  }
  return out;
}

/** The merge patch turning `from` into `to` (nulls for removed members; arrays replaced whole). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return clone(to);
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) setOwn(patch, k, null);
  for (const [k, v] of Object.entries(to)) {
    const fv = getOwn(from, k);
    if (!Object.hasOwn(from, k)) setOwn(patch, k, clone(v));
    else if (isObject(fv) && isObject(v)) {
      const sub = createMergePatch(fv, v) as Record<string, unknown>;
      if (Object.keys(sub).length > 0) setOwn(patch, k, sub);
    } else if (!deepEqual(fv, v)) setOwn(patch, k, clone(v));
  }
  return patch;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as any)[k], (b as any)[k]));
}

function clone<T>(v: T): T {
  return cloneJson(v);
}
