import { type ApiObject, errors, type StoredObject } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import { updateOrFinishDeletion } from '../lifecycle/finalizers.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';
import { decodeBody, errorTarget, fieldManagerOf, objectKey, parseResourceVersion } from './common.js';
import { createObject } from './create.js';
import {
  type DeferredWriteWork,
  isDeferredWriteWork,
  undoWriteSideEffects,
  type WriteOperation,
  type WriteRequest,
} from './write-pipeline.js';

/**
 * Runs the update pipeline inside the store's compare-and-swap: the steps see the current object,
 * and a resourceVersion in the resulting object must equal the current one (409 Conflict
 * otherwise). Returns undefined when the object does not exist.
 */
export async function updateObject(
  ctx: RequestContext,
  def: ResourceDefinition,
  operation: WriteOperation,
  body: unknown,
  patchType: string | undefined,
): Promise<StoredObject | ApiObject | undefined> {
  const name = ctx.info.name;
  const key = objectKey(ctx, def, name);
  const objects = ctx.server.objects;
  const fieldManager = fieldManagerOf(ctx);
  // The steps of a lost compare-and-swap round re-run: what the last round allocated is taken back first.
  let last: WriteRequest | undefined;
  const attempt = async (old: StoredObject): Promise<ApiObject> => {
    await undoWriteSideEffects(last);
    const w: WriteRequest = {
      ctx,
      def,
      operation,
      body,
      patchType,
      obj: {},
      old,
      dryRun: ctx.query.dryRun,
      fieldManager,
      namespace: def.namespaced ? ctx.info.namespace : '',
      name,
    };
    last = w;
    await ctx.server.writePipeline.run(w);
    const rv = w.obj.metadata?.resourceVersion;
    // `0` is no version at all: an unconditional update, as upstream's versioner reads it.
    if (rv !== undefined && rv !== '') {
      const revision = parseResourceVersion(rv, 'metadata.resourceVersion');
      if (revision !== 0 && rv !== old.metadata.resourceVersion) {
        throw errors.conflict(
          errorTarget(def, name),
          name,
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
    }
    if (w.obj.metadata) delete w.obj.metadata.resourceVersion;
    return w.obj;
  };
  // Work the steps could not do under the store's write lock runs between rounds (bounded).
  const deferred = new Set<DeferredWriteWork>();
  const finish = async (persisted: boolean) => {
    for (const d of deferred) await d.finish(persisted);
  };
  for (let round = 0; ; round++) {
    try {
      const out = await persistUpdate();
      if (out === undefined) await undoWriteSideEffects(last);
      await finish(out !== undefined && !ctx.query.dryRun);
      return out;
    } catch (e) {
      await undoWriteSideEffects(last);
      if (isDeferredWriteWork(e) && round < maxDeferredRounds) {
        deferred.add(e);
        try {
          await e.run();
          continue;
        } catch (failed) {
          await finish(false);
          throw failed;
        }
      }
      await finish(false);
      throw e;
    }
  }

  async function persistUpdate(): Promise<StoredObject | ApiObject | undefined> {
    if (ctx.query.dryRun) {
      const { object } = await objects.get(key);
      if (!object) return undefined;
      const out = await attempt(object);
      out.metadata = { ...out.metadata, resourceVersion: object.metadata.resourceVersion };
      return out;
    }
    const { object } = await objects.get(key);
    if (!object) return undefined;
    try {
      // Removing the last finalizer of a terminating object removes it (spec doc 1 §3).
      return await updateOrFinishDeletion(objects, key, attempt);
    } catch (e) {
      if ((e as { code?: unknown }).code === 'NotFound') return undefined;
      throw e;
    }
  }
}

/** Rounds of deferred step work one update may run before giving up. */
const maxDeferredRounds = 4;

/** update: PUT of the full object (spec doc 1 §4.8); 409 on a stale resourceVersion; create-on-PUT where the type allows. */
export async function handleUpdate(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const { value } = await decodeBody(ctx);
  const updated = await updateObject(ctx, def, 'update', value, undefined);
  if (updated) return writeObject(ctx, 200, updated);
  const name = ctx.info.name;
  if (!def.allowCreateOnUpdate || ctx.info.subresource !== '')
    throw errors.notFound(errorTarget(def, name), name);
  const rv = (value as ApiObject | null)?.metadata?.resourceVersion;
  if (rv && parseResourceVersion(rv, 'metadata.resourceVersion') !== 0)
    throw errors.notFound(errorTarget(def, name), name);
  const created = await createObject(ctx, def, value, name);
  await writeObject(ctx, 201, created);
}
