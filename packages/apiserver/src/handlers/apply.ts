import { parseYaml } from '@orchard/codecs';
import { decodeCbor } from '@orchard/codecs/cbor';
import { type ApiObject, errors, formatApiVersion } from '@orchard/meta';
import { setOwn } from '@orchard/meta/internal';
import { propertySchema, type StructuralSchema } from '@orchard/schema';
import { apply as ssaApply } from '@orchard/ssa';
import { isStoreError } from '@orchard/store';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { readBody } from '../request/body.js';
import { writeObject } from '../response/write.js';
import { errorTarget, objectKey } from './common.js';
import {
  applyPatchCbor,
  applyPatchYaml,
  converterOf,
  fieldManagerSchema,
  resetFieldsOf,
  subresourceOf,
} from './field-manager-step.js';
import { type PatchApplier, patchAppliers } from './patch-step.js';
import { updateObject } from './update.js';
import { undoWriteSideEffects, type WriteRequest } from './write-pipeline.js';

/** The `force` and manager of an apply, from the request. */
function applyOptions(w: WriteRequest) {
  return {
    manager: w.fieldManager,
    apiVersion: formatApiVersion({ group: w.def.group, version: w.ctx.version }),
    kind: w.def.kind,
    ...subresourceOf(w.ctx),
    ...resetFieldsOf(w.ctx, w.def),
    force: w.ctx.query.force === true,
    schema: fieldManagerSchema(w.ctx, w.def),
    ...converterOf(w),
  };
}

/**
 * The apply patch applier (spec doc 1 §4.9 items 2–5, 8, 11): merges the intent into the current
 * object and maintains its managedFields; conflicts throw `ApplyConflictError` (409). Pure in
 * (current, intent), as the patch step runs inside the store's compare-and-swap loop.
 */
export const applyPatchApplier: PatchApplier = (current, intent, w) => {
  if (typeof intent !== 'object' || intent === null || Array.isArray(intent))
    throw errors.badRequest('the apply body must be an object');
  return ssaApply(current, intent as ApiObject, applyOptions(w)).object;
};
patchAppliers.set(applyPatchYaml, applyPatchApplier);

/**
 * PATCH with `application/apply-patch+yaml` (spec doc 1 §4.9; JSON is valid YAML): `fieldManager`
 * required (400), `force` honoured, the object created when absent (201), `managedFields` in the
 * body rejected (400), conflicts answered with 409 and one cause per field. An existing object
 * goes through the write pipeline as a patch (the `patch` step calls `applyPatchApplier`); a new
 * one as a create of the applied object. Dry-run and field validation compose as for any write.
 */
export async function handleApply(
  ctx: RequestContext,
  def: ResourceDefinition,
  patchType: string,
): Promise<void> {
  const manager = ctx.query.fieldManager;
  if (!manager) throw errors.badRequest('fieldManager: Required value: is required for apply patch');
  if (patchType !== applyPatchYaml && patchType !== applyPatchCbor)
    throw errors.unsupportedMediaType(patchType, [applyPatchYaml]);
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes, ctx.res);
  const intent =
    patchType === applyPatchCbor
      ? decodeCbor(bytes, { mediaType: applyPatchCbor })
      : parseYaml(new TextDecoder().decode(bytes), patchType);
  if (typeof intent !== 'object' || intent === null || Array.isArray(intent))
    throw errors.badRequest('the apply body must be an object');
  const cleaned = checkUnknownFields(ctx, intent as ApiObject, fieldManagerSchema(ctx, def));
  const name = ctx.info.name;
  const bodyName = (cleaned.metadata as { name?: unknown } | undefined)?.name;
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(
      `the name of the object (${String(bodyName)}) does not match the name on the URL (${name})`,
    );
  }
  for (let tries = 0; ; tries++) {
    const updated = await updateObject(ctx, def, 'patch', cleaned, applyPatchYaml);
    if (updated) {
      await writeObject(ctx, 200, updated);
      return;
    }
    if (ctx.info.subresource !== '') throw errors.notFound(errorTarget(def, name), name);
    // Apply creates the object when absent (spec doc 1 §4.9 item 9).
    const w: WriteRequest = {
      ctx,
      def,
      operation: 'create',
      body: {},
      patchType: applyPatchYaml,
      obj: {},
      old: undefined,
      dryRun: ctx.query.dryRun,
      fieldManager: manager,
      namespace: def.namespaced ? ctx.info.namespace : '',
      name,
    };
    const created = ssaApply(
      undefined,
      { ...cleaned, metadata: { ...(cleaned.metadata ?? {}), name } } as ApiObject,
      applyOptions(w),
    ).object;
    const run: WriteRequest = { ...w, body: created };
    try {
      await ctx.server.writePipeline.run(run);
      if (run.dryRun) {
        await writeObject(ctx, 201, run.obj);
        return;
      }
      await writeObject(ctx, 201, await ctx.server.objects.create(objectKey(ctx, def, name), run.obj));
      return;
    } catch (e) {
      await undoWriteSideEffects(run);
      // Created concurrently: apply onto it.
      if (!isStoreError(e, 'AlreadyExists') || tries >= 2) throw e;
    }
  }
}

/**
 * Field validation for apply bodies (spec doc 1 §4.10): fields the schema does not declare are
 * an error under `Strict` (upstream's `.spec.bogus: field not declared in schema`), a warning under
 * `Warn` (the default), and dropped silently under `Ignore`.
 */
function checkUnknownFields(
  ctx: RequestContext,
  intent: ApiObject,
  schema: StructuralSchema | undefined,
): ApiObject {
  if (schema === undefined) return intent;
  const unknown: string[] = [];
  const walk = (v: unknown, s: StructuralSchema | undefined, path: string, root: boolean): unknown => {
    if (s === undefined || typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return s.items ? v.map((x) => walk(x, s.items, path, false)) : v;
    if (!s.properties || s.additionalProperties !== undefined || s.preserveUnknownFields) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const p = propertySchema(s, k);
      if (p === undefined && !(root && (k === 'apiVersion' || k === 'kind' || k === 'metadata'))) {
        unknown.push(`${path}.${k}`);
        continue;
      }
      // metadata is walked too when its schema declares fields (built-in kinds): an undeclared
      // metadata key (`__proto__`, a stray `$…` directive) must not be applied and recorded in
      // managedFields, only to be pruned from the object afterwards.
      setOwn(out, k, walk(x, p, `${path}.${k}`, false));
    }
    return out;
  };
  const cleaned = walk(intent, schema, '', true) as ApiObject;
  if (unknown.length === 0) return intent;
  const level = ctx.query.fieldValidation ?? 'Warn';
  if (level === 'Strict') {
    throw errors.badRequest(
      unknown.length === 1
        ? `${unknown[0]}: field not declared in schema`
        : `errors:\n${unknown.map((u) => `  ${u}: field not declared in schema`).join('\n')}`,
    );
  }
  if (level === 'Warn') for (const u of unknown) ctx.warnings.push(`unknown field "${u.slice(1)}"`);
  return cleaned;
}
