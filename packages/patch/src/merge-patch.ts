/**
 * JSON Merge Patch (RFC 7386, `application/merge-patch+json`).
 */
import { cloneJson, getOwn, isJsonObject, jsonEqual, setOwn } from '@orchard/meta/internal';

/**
 * Returns `target` with `patch` merged in (RFC 7386 §2): a non-object patch replaces the target;
 * in an object patch, `null` removes a member and other members merge recursively. The inputs
 * are not mutated; untouched subtrees of `target` are shared with the result.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const out: Record<string, unknown> = isJsonObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, applyMergePatch(getOwn(out, k), v));
  }
  return out;
}

/** The merge patch turning `from` into `to` (nulls for removed members; arrays replaced whole). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isJsonObject(from) || !isJsonObject(to)) return cloneJson(to);
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) setOwn(patch, k, null);
  for (const [k, v] of Object.entries(to)) {
    const fv = getOwn(from, k);
    if (!Object.hasOwn(from, k)) setOwn(patch, k, cloneJson(v));
    else if (isJsonObject(fv) && isJsonObject(v)) {
      const sub = createMergePatch(fv, v) as Record<string, unknown>;
      if (Object.keys(sub).length > 0) setOwn(patch, k, sub);
    } else if (!jsonEqual(fv, v)) setOwn(patch, k, cloneJson(v));
  }
  return patch;
}
