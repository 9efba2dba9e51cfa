import type { ApiObject, StoredObject } from '@orchard/meta';
import { errors } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';
import { decodeBody, errorTarget, fieldManagerOf, objectKey } from './common.js';
import { undoWriteSideEffects, type WriteRequest } from './write-pipeline.js';
import { typeMetaStep } from './write-steps.js';

/**
 * Runs the create pipeline on `body` and persists the result (unless dry-run). Shared by POST and
 * by PUT on a missing object of a type that allows create-on-update. Returns the created object.
 */
export async function createObject(
  ctx: RequestContext,
  def: ResourceDefinition,
  body: unknown,
  urlName: string,
): Promise<StoredObject | ApiObject> {
  // A name from generateName that is already taken is drawn again, as upstream's RetryGenerateName
  // (GA in 1.32) does: 8 attempts in all; only then the 409.
  for (let attempt = 1; ; attempt++) {
    try {
      return await createOnce(ctx, def, body, urlName);
    } catch (e) {
      if (!(e instanceof GeneratedNameTaken) || attempt >= generateNameAttempts)
        throw e instanceof GeneratedNameTaken ? e.conflict : e;
    }
  }
}

const generateNameAttempts = 8;

/** The AlreadyExists of a create whose name came from generateName: worth another draw. */
class GeneratedNameTaken extends Error {
  constructor(readonly conflict: Error) {
    super(conflict.message);
  }
}

async function createOnce(
  ctx: RequestContext,
  def: ResourceDefinition,
  body: unknown,
  urlName: string,
): Promise<StoredObject | ApiObject> {
  const meta = (body as { metadata?: { name?: unknown; generateName?: unknown } } | null)?.metadata;
  const unnamed = !meta?.name && urlName === '';
  // A create whose name is drawn from generateName may run again with the same body: it keeps it.
  const generated = unnamed && !!meta?.generateName;
  const w: WriteRequest = {
    ctx,
    def,
    operation: 'create',
    body,
    bodyOwned: !generated,
    patchType: undefined,
    obj: {},
    old: undefined,
    dryRun: ctx.query.dryRun,
    fieldManager: fieldManagerOf(ctx),
    namespace: def.namespaced ? ctx.info.namespace : '',
    name: urlName,
  };
  try {
    return await persistCreate(ctx, def, unnamed, w);
  } catch (e) {
    await undoWriteSideEffects(w);
    throw e;
  }
}

async function persistCreate(
  ctx: RequestContext,
  def: ResourceDefinition,
  unnamed: boolean,
  w: WriteRequest,
): Promise<StoredObject | ApiObject> {
  await ctx.server.writePipeline.run(w);
  const name = w.obj.metadata?.name ?? '';
  const generated = unnamed && !!w.obj.metadata?.generateName;
  const taken = () => {
    const conflict = errors.alreadyExists(errorTarget(def, name), name);
    return generated ? new GeneratedNameTaken(conflict) : conflict;
  };
  const key = objectKey(ctx, def, name);
  if (w.dryRun) {
    const { object } = await ctx.server.objects.get(key);
    if (object) throw taken();
    return w.obj;
  }
  try {
    return await ctx.server.objects.create(key, w.obj, { shared: true });
  } catch (e) {
    if (isStoreError(e, 'AlreadyExists')) throw taken();
    throw e;
  }
}

/** create: POST to a collection (spec doc 1 §4.8). 201 with the created object. */
export async function handleCreate(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const { value } = await decodeBody(ctx);
  if (def.virtualCreate) {
    const w = { ctx, def, operation: 'create', body: value, obj: {} } as unknown as WriteRequest;
    typeMetaStep.run(w);
    const out = await def.virtualCreate(w.obj, {
      flavor: ctx.server.flavor,
      user: ctx.user,
      namespace: ctx.info.namespace,
      server: ctx.server,
    });
    await writeObject(ctx, 201, out);
    return;
  }
  const created = await createObject(ctx, def, value, '');
  // The created object is the watch cache's for this revision: its bytes are kept for later reads.
  return writeObject(ctx, 201, created, 'object', true);
}
