import { type ApiObject, errors, formatApiVersion, patchMediaTypes, type StoredObject } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '@orchard/patch';
import { acceptedPatchTypes } from '@orchard/schema';
import { checkDepth } from '../schema/field-validation.js';
import { isCustomResource, schemaFor } from '../schema/schemas.js';
import type { WriteRequest, WriteStep } from './write-pipeline.js';

/** Computes the patched object from the current one and the decoded patch body. Must be pure. */
export type PatchApplier = (current: StoredObject, patch: unknown, w: WriteRequest) => unknown;

/**
 * The patch types the server applies, by media type (spec doc 1 §4.8). Server-side apply
 * (`application/apply-patch+yaml`) is registered here by the field manager.
 */
export const patchAppliers = new Map<string, PatchApplier>([
  [patchMediaTypes.json, (current, patch) => applyJsonPatch(current, patch)],
  [
    patchMediaTypes.merge,
    (current, patch) => {
      if (!isJsonObject(patch)) throw errors.badRequest('the merge patch must be a JSON object');
      return applyMergePatch(current, patch);
    },
  ],
  [
    patchMediaTypes.strategic,
    (current, patch, w) =>
      applyStrategicMergePatch(current, patch, schemaFor(w.def, w.ctx.version, w.ctx.server.flavor)),
  ],
]);

/**
 * The patch media types a resource accepts (what its OpenAPI document lists): strategic merge only
 * for built-in kinds — custom resources answer 415, as upstream.
 */
export function acceptedPatchTypesFor(def: WriteRequest['def']): string[] {
  return acceptedPatchTypes(!isCustomResource(def));
}

/**
 * `patch`: computes the new object from `old` and the patch body with the applier of the
 * Content-Type. The result must stay an object of the same apiVersion and kind.
 */
export const patchStep: WriteStep = {
  name: 'patch',
  operations: ['patch'],
  run(w) {
    if (!w.old) throw new Error('patch step without the current object');
    const type = w.patchType ?? '';
    const accepted = acceptedPatchTypesFor(w.def);
    const applier = patchAppliers.get(type);
    if (!applier || !accepted.includes(type)) throw errors.unsupportedMediaType(type, accepted);
    const patched = applier(w.old, w.body, w);
    if (!isJsonObject(patched)) throw errors.badRequest('the patched object is not an object');
    // A JSON Patch can deepen an object (copy into itself); refuse what could not be stored.
    checkDepth(patched);
    const obj = patched as ApiObject;
    const expectedApiVersion = formatApiVersion({ group: w.def.group, version: w.ctx.version });
    if (obj.apiVersion !== expectedApiVersion || obj.kind !== w.def.kind) {
      throw errors.badRequest('a patch may not change apiVersion or kind');
    }
    if (!isJsonObject(obj.metadata)) throw errors.badRequest('metadata must be an object');
    w.obj = obj;
  },
};
