import { formatApiVersion, patchMediaTypes } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { FieldSet, makePath, update as ssaUpdate, type VersionConverter } from '@orchard/ssa';
import type { RequestContext } from '../context.js';
import { fieldManagerConverter } from '../crd/conversion.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { schemaFor } from '../schema/schemas.js';
import type { WriteRequest, WriteStep } from './write-pipeline.js';

/** Server-side apply media types (spec doc 1 §4.3). CBOR is accepted once the CBOR codec serves it. */
export const applyPatchYaml = patchMediaTypes.apply;
export const applyPatchCbor = patchMediaTypes.applyCbor;

/** The schema the field manager merges with: the one every write step uses (CRD, own, built-in). */
export function fieldManagerSchema(
  ctx: RequestContext,
  def: ResourceDefinition,
): StructuralSchema | undefined {
  return schemaFor(def, ctx.version, ctx.server.flavor);
}

/** The field manager's version converter of the written resource, when it has several versions. */
export function converterOf(w: WriteRequest): { convert?: VersionConverter } {
  const convert = fieldManagerConverter(w.ctx.server.converters, w.def);
  return convert ? { convert } : {};
}

export function subresourceOf(ctx: RequestContext): { subresource?: string } {
  return ctx.info.subresource ? { subresource: ctx.info.subresource } : {};
}

const statusFields = FieldSet.of(makePath('status'));
const specFields = FieldSet.of(makePath('spec'));

/**
 * The fields a write resets, which the field manager ignores (upstream `GetResetFields`): for a
 * type with a status sub-resource, `status` on the main resource and `spec` on `/status`.
 */
export function resetFieldsOf(ctx: RequestContext, def: ResourceDefinition): { ignoredFields?: FieldSet } {
  if (!def.subresources.some((s) => s.name === 'status')) return {};
  if (ctx.info.subresource === '') return { ignoredFields: statusFields };
  if (ctx.info.subresource === 'status') return { ignoredFields: specFields };
  return {};
}

/**
 * `field-manager` write step: every non-apply write (create, update, JSON/merge/strategic patch,
 * status writes) records what it changed in `metadata.managedFields` as an `Update` entry of its
 * manager (spec doc 1 §4.9 items 3, 6, 10). Applies computed theirs already (see `handleApply`).
 * It runs after `strategy-prepare` and the schema steps, so what is recorded is what is stored.
 * It never fails the write (upstream `UpdateNoErrors`).
 */
export const fieldManagerStep: WriteStep = {
  name: 'field-manager',
  operations: ['create', 'update', 'patch'],
  run(w: WriteRequest) {
    if (w.patchType === applyPatchYaml || w.patchType === applyPatchCbor) return;
    try {
      w.obj = ssaUpdate(w.old, w.obj, {
        manager: w.fieldManager,
        apiVersion: formatApiVersion({ group: w.def.group, version: w.ctx.version }),
        ...subresourceOf(w.ctx),
        ...resetFieldsOf(w.ctx, w.def),
        schema: fieldManagerSchema(w.ctx, w.def),
        ...converterOf(w),
      }).object;
    } catch (e) {
      // Upstream UpdateNoErrors: a write never fails because of managedFields; an object the field
      // manager cannot type (e.g. list-map items without keys, rejected later by validation) is
      // written without them.
      w.ctx.server.log.error('failed to update managedFields', e);
      if (w.obj.metadata) delete w.obj.metadata.managedFields;
    }
  },
};
