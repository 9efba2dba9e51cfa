import { deepCopy, errors } from '@orchard/meta';

/**
 * RFC 7386 JSON merge patch, the minimal patch support the server has until `@orchard/patch`
 * plugs in its handler (JSON Patch, strategic merge, apply). Strategic merge patches are applied as
 * merge patches (correct for maps and scalars; lists are replaced), which serves `kubectl label`,
 * `annotate` and simple `patch`.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return deepCopy(patch);
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export const supportedPatchTypes = ['application/merge-patch+json', 'application/strategic-merge-patch+json'];

export function applyMinimalPatch(current: unknown, patch: unknown, patchType: string): unknown {
  if (!supportedPatchTypes.includes(patchType)) {
    throw errors.unsupportedMediaType(patchType, supportedPatchTypes);
  }
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw errors.badRequest('the patch must be a JSON object');
  }
  return mergePatch(current, patch);
}
