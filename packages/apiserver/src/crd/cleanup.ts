import { type ApiObject, type Flavor, isApiError, nowRfc3339, type StoredObject } from '@orchard/meta';
import { deleteObject } from '../lifecycle/deletion.js';
import { finalizersOf, mutateObject, removeFinalizer } from '../lifecycle/finalizers.js';
import { createWorkQueue, type WorkQueue } from '../lifecycle/work-queue.js';
import type { ServerState } from '../state.js';

/**
 * Deleting a CRD (upstream's apiextensions `REST.Delete` and `crdFinalizer`): the delete adds the
 * `customresourcecleanup.apiextensions.<domain>` finalizer and a `Terminating` condition, so the CRD
 * stays Terminating; the cleanup deletes every instance through the shared deletion state machine
 * (instances with finalizers stay until their controllers release them), then removes the finalizer,
 * which removes the CRD. Until then the resource is served (except create, 405), so finalizers can
 * be removed.
 */

type Obj = Record<string, any>;

/** `customresourcecleanup.apiextensions.k8s.io` under the kubernetes flavor. */
export function crdCleanupFinalizer(flavor: Flavor): string {
  return `customresourcecleanup.${flavor.group('apiextensions')}`;
}

interface CrdCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime?: string;
}

/** Sets one status condition; the transition time moves only when the status changes. Returns whether anything changed. */
function setCondition(crd: ApiObject, c: CrdCondition): boolean {
  const status = ((crd.status as Obj | undefined) ?? {}) as Obj;
  const conditions: CrdCondition[] = [...(status.conditions ?? [])];
  const i = conditions.findIndex((x) => x.type === c.type);
  const prev = i < 0 ? undefined : conditions[i];
  if (prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message)
    return false;
  const next = {
    type: c.type,
    status: c.status,
    lastTransitionTime: prev?.status === c.status ? (prev.lastTransitionTime ?? nowRfc3339()) : nowRfc3339(),
    reason: c.reason,
    message: c.message,
  };
  if (i < 0) conditions.push(next);
  else conditions[i] = next;
  crd.status = { ...status, conditions };
  return true;
}

function terminating(reason: string, message: string): CrdCondition {
  return { type: 'Terminating', status: 'True', reason, message };
}

/** The CRD strategy's `prepareForDelete`: the cleanup finalizer and `Terminating: InstanceDeletionPending`. */
export function prepareCrdForDelete(crd: StoredObject, flavor: Flavor): void {
  const finalizer = crdCleanupFinalizer(flavor);
  const finalizers = finalizersOf(crd);
  if (!finalizers.includes(finalizer)) crd.metadata.finalizers = [...finalizers, finalizer];
  setCondition(
    crd,
    terminating(
      'InstanceDeletionPending',
      'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    ),
  );
}

export interface CrdCleanupOptions {
  /** Delay before looking again at instances held by finalizers. Default 200 ms. */
  readonly recheckMs: number;
}

export const defaultCrdCleanupOptions: Readonly<CrdCleanupOptions> = Object.freeze({ recheckMs: 200 });

/** The cleanup of terminating CRDs, by CRD name. */
export interface CrdCleanup {
  /** Looks at a CRD (queued; a CRD that is not Terminating with the finalizer is left alone). */
  add(name: string): void;
  stop(): Promise<void>;
}

export function createCrdCleanup(state: ServerState, input: Partial<CrdCleanupOptions> = {}): CrdCleanup {
  const o: CrdCleanupOptions = { ...defaultCrdCleanupOptions, ...input };
  const crdGroup = state.flavor.group('apiextensions');
  const finalizer = crdCleanupFinalizer(state.flavor);
  const queue: WorkQueue = createWorkQueue((name) => sync(name), {
    onError: (item, error, dropped) =>
      state.log.error(`CRD cleanup: ${item}${dropped ? ' (dropped)' : ''}`, error),
    onOverflow: () => {},
  });

  const report = (key: string, uid: string | undefined, reason: string, message: string) =>
    mutateObject(state.objects, key, uid, (crd) =>
      setCondition(crd, terminating(reason, message)) ? crd : undefined,
    );

  /** Deletes the instances not yet Terminating; resolves to how many are left. */
  async function deleteInstances(group: string, resource: string): Promise<number> {
    const def = state.registry.get(group, resource);
    const { items } = await state.objects.list(state.objects.prefix({ group, resource, namespace: '' }));
    let left = 0;
    for (const item of items) {
      if (!def) {
        left++;
        continue;
      }
      if (item.metadata.deletionTimestamp) {
        left++;
        continue;
      }
      try {
        const r = await deleteObject(
          state,
          { def, namespace: item.metadata.namespace ?? '', name: item.metadata.name },
          { propagationPolicy: 'Background', preconditions: { uid: item.metadata.uid ?? '' } },
          item,
        );
        if (!r.deleted) left++;
      } catch (e) {
        // Gone or replaced meanwhile: the next look counts it again if it is still there.
        if (!isApiError(e, 'NotFound', 'Conflict', 'AlreadyExists')) throw e;
      }
    }
    return left;
  }

  async function sync(name: string): Promise<void> {
    const key = state.objects.key(
      { group: crdGroup, resource: 'customresourcedefinitions', namespace: '' },
      name,
    );
    const { object: crd } = await state.objects.get(key);
    if (!crd?.metadata.deletionTimestamp || !finalizersOf(crd).includes(finalizer)) return;
    const uid = crd.metadata.uid;
    const spec = (crd.spec ?? {}) as Obj;
    const group = String(spec.group ?? '');
    const resource = String(spec.names?.plural ?? '');
    // Only from Pending: a later look (InstanceDeletionCheck) must not flip it back and forth, since
    // every condition write is an event that queues this CRD again.
    const reason = ((crd.status as Obj | undefined)?.conditions ?? []).find(
      (c: CrdCondition) => c.type === 'Terminating',
    )?.reason;
    if (reason === undefined || reason === 'InstanceDeletionPending')
      await report(key, uid, 'InstanceDeletionInProgress', 'CustomResource deletion is in progress');
    let left: number;
    try {
      left = await deleteInstances(group, resource);
    } catch (e) {
      await report(
        key,
        uid,
        'InstanceDeletionFailed',
        `could not issue all deletes: ${(e as Error).message}`,
      );
      throw e;
    }
    if (left > 0) {
      await report(
        key,
        uid,
        'InstanceDeletionCheck',
        `could not confirm zero CustomResources remaining: ${left} remaining`,
      );
      queue.addAfter(name, o.recheckMs);
      return;
    }
    await report(key, uid, 'InstanceDeletionCompleted', 'removed all instances');
    await removeFinalizer(state.objects, key, uid ?? '', finalizer);
  }

  return {
    add: (name) => queue.add(name),
    stop: () => queue.stop(),
  };
}
