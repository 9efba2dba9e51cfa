import { type ApiObject, type DeleteOptions, errors, nowRfc3339, type StoredObject } from '@orchard/meta';
import { cloneJson } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ServerState } from '../state.js';
import { isDryRun } from './delete-options.js';
import {
  finalizerDeleteDependents,
  finalizerOrphanDependents,
  finalizersOf,
  maxCasAttempts,
} from './finalizers.js';

/** One object addressed for deletion. `namespace` is '' for cluster-scoped types. */
export interface DeleteTarget {
  readonly def: ResourceDefinition;
  readonly namespace: string;
  readonly name: string;
}

/**
 * What a delete did: `deleted` = removed from storage now (the object is its last state, carrying
 * the deletion revision); otherwise the object is still there, Terminating (or a namespace being
 * emptied), and `object` is its current state.
 */
export interface DeleteOutcome {
  readonly object: StoredObject | ApiObject;
  readonly deleted: boolean;
}

export function isNamespaceType(def: ResourceDefinition): boolean {
  return def.group === '' && def.resource === 'namespaces';
}

/** Namespaces that may never be deleted (upstream's immortal namespaces: default, system, public). */
export function immortalNamespaces(state: Pick<ServerState, 'flavor'>): readonly string[] {
  return ['default', state.flavor.systemNamespace, state.flavor.publicNamespace];
}

export function keyOf(state: Pick<ServerState, 'objects'>, t: DeleteTarget): string {
  return state.objects.key(
    { group: t.def.group, resource: t.def.resource, namespace: t.def.namespaced ? t.namespace : '' },
    t.name,
  );
}

/**
 * The garbage-collection policy a delete asks for (upstream `shouldOrphanDependents` /
 * `shouldDeleteDependents`): explicit options win, then the finalizers already on the object,
 * then the type's default (Background for every type here).
 */
export function gcFinalizers(
  obj: ApiObject,
  opts: DeleteOptions,
): { changed: boolean; finalizers: string[] } {
  const current = finalizersOf(obj);
  let orphan: boolean;
  let foreground: boolean;
  if (opts.orphanDependents !== undefined && opts.orphanDependents !== null) {
    orphan = opts.orphanDependents;
    foreground = false;
  } else if (opts.propagationPolicy) {
    orphan = opts.propagationPolicy === 'Orphan';
    foreground = opts.propagationPolicy === 'Foreground';
  } else {
    const firstGc = current.find((f) => f === finalizerOrphanDependents || f === finalizerDeleteDependents);
    orphan = firstGc === finalizerOrphanDependents;
    foreground = firstGc === finalizerDeleteDependents;
  }
  const next = current.filter((f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents);
  if (orphan) next.push(finalizerOrphanDependents);
  if (foreground) next.push(finalizerDeleteDependents);
  const a = new Set(current);
  const b = new Set(next);
  const changed = a.size !== b.size || [...a].some((f) => !b.has(f));
  return { changed, finalizers: changed ? next : current };
}

/** The early precondition check of upstream's `BeforeDelete` (409 naming the Kind). */
function checkPreconditions(def: ResourceDefinition, obj: StoredObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  if (!p) return;
  const target = { group: def.group, resource: def.kind };
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw errors.conflict(
      target,
      obj.metadata.name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw errors.conflict(
      target,
      obj.metadata.name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}

function withoutVersion(obj: ApiObject): ApiObject {
  const copy = { ...obj, metadata: { ...obj.metadata } };
  delete copy.metadata.resourceVersion;
  return copy;
}

function sameObject(a: ApiObject, b: ApiObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The deletion state machine of spec doc 1 §3 (upstream's generic `Store.Delete` plus the namespace
 * REST `Delete`), for HTTP handlers and in-process controllers alike:
 * - Live, no finalizers (after applying the propagation policy): removed now.
 * - Live with finalizers (or `Foreground`/`Orphan`, which add `foregroundDeletion`/`orphan`):
 *   `deletionTimestamp` = now, `deletionGracePeriodSeconds` = 0, stays Terminating.
 * - Terminating: the timestamp never moves; only the GC finalizers follow a new policy; a delete
 *   that leaves no finalizer removes it.
 * - Namespaces: the first delete sets `deletionTimestamp` and `status.phase: Terminating`; the
 *   namespace is removed only once `spec.finalizers` is empty (the namespace controller's job).
 * `dryRun=All` computes the same answer and writes nothing. Rejects with 404, 409 (preconditions,
 * upstream messages), 403 for immortal namespaces; a stored value that cannot be decoded rejects
 * with `UndecodableObjectError` (the unsafe-delete path handles it).
 */
export async function deleteObject(
  state: ServerState,
  target: DeleteTarget,
  opts: DeleteOptions,
  /** The object as just read by the caller (a controller's list): saves a read; every write is still a CAS on its revision. */
  known?: StoredObject,
): Promise<DeleteOutcome> {
  const { def, name } = target;
  const key = keyOf(state, target);
  const objects = state.objects;
  const dry = isDryRun(opts);
  const notFound = () => errors.notFound({ group: def.group, resource: def.resource }, name);
  if (isNamespaceType(def) && immortalNamespaces(state).includes(name)) {
    throw errors.forbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
  }
  for (let attempt = 0; ; attempt++) {
    const current = attempt === 0 && known ? known : (await objects.get(key)).object;
    if (!current) throw notFound();
    const revision = Number(current.metadata.resourceVersion);
    let next: ApiObject | undefined;
    let remove = false;
    if (isNamespaceType(def)) {
      const r = namespaceDelete(state, current, opts);
      if (r === 'delete-generic') {
        ({ next, remove } = genericDelete(def, current, opts));
      } else {
        next = r;
      }
    } else if (def.strategy.prepareForDelete && !current.metadata.deletionTimestamp) {
      const prepared = cloneJson(current) as StoredObject;
      def.strategy.prepareForDelete(prepared, { flavor: state.flavor });
      ({ next, remove } = genericDelete(def, prepared, opts));
      if (!next && !remove) next = prepared;
    } else {
      ({ next, remove } = genericDelete(def, current, opts));
    }
    try {
      if (remove) {
        if (dry) return { object: next ?? current, deleted: true };
        let at = revision;
        // A graceful type deleted with period 0 is first marked (watchers see MODIFIED), then removed.
        if (next && !sameObject(withoutVersion(next), withoutVersion(current))) {
          const marked = await objects.update(key, () => withoutVersion(next as ApiObject), revision);
          at = Number(marked.metadata.resourceVersion);
        }
        const gone = await objects.delete(key, undefined, at);
        return { object: gone, deleted: true };
      }
      if (!next || sameObject(withoutVersion(next), withoutVersion(current))) {
        return { object: current, deleted: false };
      }
      if (dry) {
        return {
          object: {
            ...next,
            metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion },
          },
          deleted: false,
        };
      }
      const updated = await objects.update(key, () => withoutVersion(next as ApiObject), revision);
      return { object: updated, deleted: false };
    } catch (e) {
      if (isStoreError(e, 'NotFound')) throw notFound();
      if (isStoreError(e, 'Conflict') && attempt < maxCasAttempts) continue;
      throw e;
    }
  }
}

/**
 * Graceful deletion (upstream `RESTGracefulDeleteStrategy.CheckGracefulDelete`): the grace period
 * in seconds a delete of this object gets. Pods: the option, else
 * `spec.terminationGracePeriodSeconds` (default 30); 0 when unscheduled (no `spec.nodeName`) or already
 * finished (`Succeeded`/`Failed`); negative → 1. A pod with a grace period stays Terminating until
 * its node agent deletes it with period 0 (or a client forces it).
 */
export type GracePeriodPolicy = (obj: StoredObject, opts: DeleteOptions) => number;

/** Upstream's default of `spec.terminationGracePeriodSeconds` (applied when the pod has none). */
export const defaultTerminationGracePeriodSeconds = 30;

const podGracePeriod: GracePeriodPolicy = (pod, opts) => {
  const spec = (pod.spec ?? {}) as { terminationGracePeriodSeconds?: number; nodeName?: string };
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  let period =
    opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds !== null
      ? opts.gracePeriodSeconds
      : (spec.terminationGracePeriodSeconds ?? defaultTerminationGracePeriodSeconds);
  if (!spec.nodeName) period = 0;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  return period < 0 ? 1 : period;
};

/** Types with graceful deletion, by `<group>/<resource>`. */
const gracefulTypes: Readonly<Record<string, GracePeriodPolicy>> = { '/pods': podGracePeriod };

function addSeconds(rfc3339: string, seconds: number): string {
  return nowRfc3339(new Date(Date.parse(rfc3339) + seconds * 1000));
}

/**
 * Generic `Store.Delete` (with upstream's `BeforeDelete`): either remove now (`next`, when set, is
 * written first), or the Terminating object to write (`next` undefined = nothing changes).
 */
function genericDelete(
  def: ResourceDefinition,
  current: StoredObject,
  input: DeleteOptions,
): { next: ApiObject | undefined; remove: boolean } {
  checkPreconditions(def, current, input);
  const opts: DeleteOptions = { ...input };
  // Negative values are treated as 1 s on the delete path (upstream).
  if (
    opts.gracePeriodSeconds !== undefined &&
    opts.gracePeriodSeconds !== null &&
    opts.gracePeriodSeconds < 0
  )
    opts.gracePeriodSeconds = 1;
  const policy = gracefulTypes[`${def.group}/${def.resource}`];
  const gc = gcFinalizers(current, opts);
  const pending = gc.finalizers.length > 0;
  // The common case (no graceful deletion, nothing holding it): removed now, nothing to copy.
  if (!policy && !pending) return { next: undefined, remove: true };
  const next = cloneJson(current) as StoredObject;
  let graceful = false;
  let period = 0;
  if (policy) {
    const ts = current.metadata.deletionTimestamp;
    const grace = current.metadata.deletionGracePeriodSeconds;
    if (ts && grace) {
      // Already being deleted gracefully: only a shorter grace period changes anything.
      const wanted = opts.gracePeriodSeconds;
      if (wanted === undefined || wanted === null || wanted >= grace)
        return { next: undefined, remove: false };
      next.metadata.deletionTimestamp = addSeconds(ts, wanted - grace);
      next.metadata.deletionGracePeriodSeconds = wanted;
      graceful = true;
      period = wanted;
    } else if (!ts) {
      period = policy(current, opts);
      next.metadata.deletionTimestamp = addSeconds(nowRfc3339(), period);
      next.metadata.deletionGracePeriodSeconds = period;
      const generation = current.metadata.generation;
      if (typeof generation === 'number' && generation > 0) next.metadata.generation = generation + 1;
      graceful = true;
    }
  }
  if (gc.changed) next.metadata.finalizers = gc.finalizers;
  if (graceful) {
    if (pending || period > 0) return { next, remove: false };
    return { next, remove: true };
  }
  if (!pending) return { next: undefined, remove: true };
  // Types without graceful deletion get grace 0 once finalizers are pending (upstream).
  next.metadata.deletionGracePeriodSeconds = 0;
  if (!next.metadata.deletionTimestamp) next.metadata.deletionTimestamp = nowRfc3339();
  return { next, remove: false };
}

/**
 * Namespace REST `Delete`: upstream's messages for preconditions, the Terminating transition with
 * the GC finalizers the options ask for, then removal once `spec.finalizers` is empty.
 */
function namespaceDelete(
  _state: ServerState,
  current: StoredObject,
  opts: DeleteOptions,
): ApiObject | 'delete-generic' {
  const name = current.metadata.name;
  const p = opts.preconditions;
  const target = { group: '', resource: 'namespaces' };
  if (p?.uid && p.uid !== current.metadata.uid) {
    throw errors.conflict(
      target,
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${current.metadata.uid}`,
    );
  }
  if (p?.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion) {
    throw errors.conflict(
      target,
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`,
    );
  }
  if (!current.metadata.deletionTimestamp) {
    const next = cloneJson(current) as StoredObject;
    next.metadata.deletionTimestamp = nowRfc3339();
    next.status = { ...((next.status as Record<string, unknown> | undefined) ?? {}), phase: 'Terminating' };
    const have = new Set(finalizersOf(current));
    let orphan = have.has(finalizerOrphanDependents);
    let foreground = have.has(finalizerDeleteDependents);
    if (opts.orphanDependents !== undefined && opts.orphanDependents !== null) {
      orphan = opts.orphanDependents;
      foreground = !opts.orphanDependents;
    } else if (opts.propagationPolicy) {
      orphan = opts.propagationPolicy === 'Orphan';
      foreground = opts.propagationPolicy === 'Foreground';
    }
    const list = finalizersOf(current).filter(
      (f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents,
    );
    if (orphan) list.push(finalizerOrphanDependents);
    if (foreground) list.push(finalizerDeleteDependents);
    if (list.length > 0) next.metadata.finalizers = list;
    else delete next.metadata.finalizers;
    return next;
  }
  const specFinalizers = (current.spec as { finalizers?: unknown } | undefined)?.finalizers;
  if (Array.isArray(specFinalizers) && specFinalizers.length > 0) return current;
  return 'delete-generic';
}
