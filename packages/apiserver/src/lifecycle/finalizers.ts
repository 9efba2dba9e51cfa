import {
  type ApiObject,
  errors,
  fieldErrors,
  finalizerDeleteDependents,
  finalizerOrphanDependents,
  type StoredObject,
} from '@orchard/meta';
import { cloneJson } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import type { WriteStep } from '../handlers/write-pipeline.js';
import type { ObjectStore } from '../storage/object-store.js';

export { finalizerDeleteDependents, finalizerOrphanDependents };

/** How many compare-and-swap retries a controller write makes before giving up (it is requeued). */
export const maxCasAttempts = 16;

export function finalizersOf(obj: ApiObject | undefined): string[] {
  const f = obj?.metadata?.finalizers;
  return Array.isArray(f) ? f : [];
}

export function isTerminating(obj: ApiObject | undefined): boolean {
  return Boolean(obj?.metadata?.deletionTimestamp);
}

/**
 * Upstream's `shouldDeleteDuringUpdate`: an update that removes the last finalizer of an object
 * being deleted (deletionTimestamp set, grace period 0) removes the object from storage instead
 * (spec doc 1 §3: Terminating → removed when the last finalizer is removed).
 */
export function shouldDeleteDuringUpdate(next: ApiObject, old: ApiObject): boolean {
  if (finalizersOf(next).length > 0) return false;
  if (finalizersOf(old).length === 0) return false;
  const grace = next.metadata?.deletionGracePeriodSeconds;
  return Boolean(next.metadata?.deletionTimestamp) && grace === 0;
}

/**
 * `deletion-lifecycle` write step (update, patch): once an object is terminating, an update keeps
 * its `deletionGracePeriodSeconds` (as upstream's BeforeUpdate) and may not add finalizers
 * (422 `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being
 * deleted, found new finalizers []string{…}`). A live object cannot be given a grace period.
 */
export const deletionLifecycleStep: WriteStep = {
  name: 'deletion-lifecycle',
  operations: ['update', 'patch'],
  run(w) {
    const old = w.old;
    const meta = w.obj.metadata;
    if (!old || !meta) return;
    if (!old.metadata.deletionTimestamp) {
      delete meta.deletionGracePeriodSeconds;
      return;
    }
    const oldGrace = old.metadata.deletionGracePeriodSeconds;
    if (oldGrace !== undefined && oldGrace !== null) meta.deletionGracePeriodSeconds = oldGrace;
    else delete meta.deletionGracePeriodSeconds;
    const before = new Set(finalizersOf(old));
    const added = [...new Set(finalizersOf(w.obj))].filter((f) => !before.has(f)).sort();
    if (added.length > 0) {
      const cause = fieldErrors.forbidden(
        'metadata.finalizers',
        `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added
          .map((f) => JSON.stringify(f))
          .join(', ')}}`,
      );
      throw errors.invalid(w.def.group, w.def.kind, meta.name ?? w.name, [cause]);
    }
  },
};

/** Thrown inside a CAS callback to leave it; never escapes this module. */
const finishDeletion = Symbol('finish-deletion');

/**
 * The update path of the store with the last step of the deletion lifecycle: when the new object
 * has no finalizers left while being deleted (`shouldDeleteDuringUpdate`), the object is removed
 * from storage (watchers see DELETED) and the new object is returned, as upstream's
 * `deleteWithoutFinalizers` answers the PUT. `tryUpdate` may re-run (compare-and-swap).
 */
export async function updateOrFinishDeletion(
  objects: ObjectStore,
  key: string,
  tryUpdate: (current: StoredObject) => ApiObject | Promise<ApiObject>,
): Promise<StoredObject | ApiObject> {
  for (let attempt = 0; ; attempt++) {
    let emptied: { next: ApiObject; old: StoredObject } | undefined;
    try {
      return await objects.update(key, async (current) => {
        const next = await tryUpdate(current);
        if (shouldDeleteDuringUpdate(next, current)) {
          emptied = { next, old: current };
          throw finishDeletion;
        }
        return next;
      });
    } catch (e) {
      if (e !== finishDeletion || !emptied) throw e;
    }
    try {
      await objects.delete(key, undefined, Number(emptied.old.metadata.resourceVersion));
      return emptied.next;
    } catch (e) {
      // Someone else removed it meanwhile: the update's intent (object gone) holds.
      if (isStoreError(e, 'NotFound')) return emptied.next;
      if (isStoreError(e, 'Conflict') && attempt < maxCasAttempts) continue;
      throw e;
    }
  }
}

/**
 * A controller's compare-and-swap write of one object (`uid` must still match). `mutate` gets a
 * copy of the current object and returns the new one, or undefined for "no change" (nothing is
 * written: a no-op never bumps resourceVersion or sends an event). Emptying the finalizers of a
 * terminating object removes it. Resolves to the written object, the current one when unchanged,
 * or undefined when the object is gone.
 */
export async function mutateObject(
  objects: ObjectStore,
  key: string,
  uid: string | undefined,
  mutate: (obj: StoredObject) => ApiObject | undefined,
): Promise<StoredObject | ApiObject | undefined> {
  for (let attempt = 0; attempt < maxCasAttempts; attempt++) {
    const { object: current } = await objects.get(key);
    if (!current || (uid !== undefined && current.metadata.uid !== uid)) return undefined;
    const next = mutate(cloneJson(current));
    if (!next) return current;
    const revision = Number(current.metadata.resourceVersion);
    try {
      if (shouldDeleteDuringUpdate(next, current)) {
        await objects.delete(key, undefined, revision);
        return next;
      }
      const body = { ...next, metadata: { ...next.metadata } };
      delete body.metadata.resourceVersion;
      return await objects.update(key, () => body, revision);
    } catch (e) {
      if (isStoreError(e, 'NotFound')) return undefined;
      if (isStoreError(e, 'Conflict')) continue;
      throw e;
    }
  }
  throw errors.conflict(
    { group: '', resource: '' },
    key,
    'the object has been modified; please apply your changes to the latest version and try again',
  );
}

/** Removes one finalizer (no write when absent); the object goes away when it was the last one. */
export function removeFinalizer(
  objects: ObjectStore,
  key: string,
  uid: string,
  finalizer: string,
): Promise<StoredObject | ApiObject | undefined> {
  return mutateObject(objects, key, uid, (obj) => {
    const list = finalizersOf(obj);
    if (!list.includes(finalizer)) return undefined;
    const rest = list.filter((f) => f !== finalizer);
    if (rest.length > 0) obj.metadata.finalizers = rest;
    else delete obj.metadata.finalizers;
    return obj;
  });
}
