import { parseMediaType, parseYaml } from '@orchard/codecs';
import { ApiError, type ApiObject, errors, fieldErrors, patchMediaTypes as types } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import { parseJsonPatchText } from '@orchard/patch';
import { findDuplicateFieldsJson } from '@orchard/schema';
import { duplicateFieldMessage } from '@orchard/schema/internal';
import type { RequestContext } from '../context.js';
import { featureEnabled } from '../feature-gates.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { readBody } from '../request/body.js';
import { writeObject } from '../response/write.js';
import { checkDepth, noteDuplicateFields } from '../schema/field-validation.js';
import { handleApply } from './apply.js';
import { errorTarget } from './common.js';
import { applyPatchCbor } from './field-manager-step.js';
import { acceptedPatchTypesFor } from './patch-step.js';
import { updateObject } from './update.js';

/** Every patch media type this server knows (spec doc 1 §4.3). */
export const patchMediaTypes = [types.json, types.merge, types.strategic, types.apply];

const textDecoder = new TextDecoder();

/** Decodes a patch body by its type; merge and strategic bodies have their duplicate fields noted. */
function decodePatch(ctx: RequestContext, patchType: string, text: string): unknown {
  if (patchType === types.json) {
    const ops = parseJsonPatchText(text);
    checkDepth(ops);
    return ops;
  }
  if (patchType === types.apply) return parseYaml(text, patchType);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  checkDepth(value);
  if (ctx.query.fieldValidation !== 'Ignore') {
    noteDuplicateFields(ctx, findDuplicateFieldsJson(text, value).map(duplicateFieldMessage));
  }
  return value;
}

/**
 * patch: PATCH with the patch type in Content-Type (spec doc 1 §4.8): JSON Patch, JSON merge
 * patch, strategic merge patch (built-in kinds only; 415 for custom resources) and whatever else
 * is registered in `patchAppliers`. A `metadata.resourceVersion` the patch leaves in the object is
 * a precondition (409 when stale); the result goes through the whole write pipeline
 * (schema, validation: 422 for an invalid result).
 */
export async function handlePatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const ct = ctx.req.headers['content-type'] ?? '';
  const mt = parseMediaType(ct);
  const patchType = mt ? `${mt.type}/${mt.subtype}` : '';
  const accepted = acceptedPatchTypesFor(def);
  // Apply in CBOR exists only with CBOR itself (gate CBORServingAndStorage); no other CBOR patch type does.
  const cborApply =
    patchType === applyPatchCbor && featureEnabled(ctx.server.options.featureGates, 'CBORServingAndStorage');
  if (!accepted.includes(patchType) && !cborApply) throw errors.unsupportedMediaType(ct, accepted);
  // Server-side apply: its own handler (fieldManager required, create when absent).
  if (patchType === types.apply || cborApply) return handleApply(ctx, def, patchType);
  if (ctx.query.force !== undefined) {
    // Upstream's PatchOptions validation: `force` belongs to apply alone.
    const group = ctx.server.flavor.group('meta');
    const causes = [fieldErrors.forbidden('force', 'may not be specified for non-apply patch')];
    throw new ApiError(422, 'Invalid', `PatchOptions.${group} "" is invalid: ${aggregateMessage(causes)}`, {
      group,
      kind: 'PatchOptions',
      causes,
    });
  }
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes, ctx.res);
  const patch = decodePatch(ctx, patchType, textDecoder.decode(bytes));
  const name = ctx.info.name;
  const out: ApiObject | undefined = await updateObject(ctx, def, 'patch', patch, patchType);
  if (!out) throw errors.notFound(errorTarget(def, name), name);
  await writeObject(ctx, 200, out);
}
