import { isApiError, type OwnerReference, type StoredObject } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ServerState } from '../state.js';
import { isUndecodableObjectError } from '../storage/object-store.js';
import type { PropagationPolicy } from './delete-options.js';
import { deleteObject } from './deletion.js';
import {
  finalizerDeleteDependents,
  finalizerOrphanDependents,
  finalizersOf,
  mutateObject,
  removeFinalizer,
} from './finalizers.js';
import { type ObservedObject, parseObjectKey } from './observed.js';
import { createWorkQueue, type WorkQueue, type WorkQueueOptions } from './work-queue.js';

/** One object of the dependency graph (upstream's GC `node`), kept from the store's events. */
interface GraphNode {
  readonly uid: string;
  readonly key: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly owners: readonly OwnerReference[];
  readonly deleting: boolean;
  readonly finalizers: readonly string[];
}

export interface GarbageCollector {
  /** Feeds one store event (in revision order). */
  observe(event: ObservedObject): void;
  /** Queues every object that may need work (after start and after a queue overflow). */
  resync(): void;
  /** Forgets the graph (before a relist). */
  reset(): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const deleteItem = 'd:';
const orphanItem = 'o:';

function ownersOf(obj: StoredObject): OwnerReference[] {
  const refs = obj.metadata.ownerReferences;
  return Array.isArray(refs) ? refs.filter((r) => r && typeof r.uid === 'string') : [];
}

const none: readonly never[] = Object.freeze([]);

/** A node the graph can hold as its key alone: no owners, no finalizers, not being deleted. */
function isPlain(n: Pick<GraphNode, 'owners' | 'finalizers' | 'deleting'>): boolean {
  return n.owners.length === 0 && n.finalizers.length === 0 && !n.deleting;
}

/** `isPlain` of an object, read without building its node. */
function isPlainObject(obj: StoredObject): boolean {
  const { ownerReferences: refs, finalizers, deletionTimestamp } = obj.metadata;
  return (
    !deletionTimestamp &&
    (!Array.isArray(finalizers) || finalizers.length === 0) &&
    (!Array.isArray(refs) || !refs.some((r) => r && typeof r.uid === 'string'))
  );
}

/** The node of a plain object held as its key. */
function plainNode(uid: string, key: string): GraphNode | undefined {
  const at = parseObjectKey(key);
  return at && { uid, key, ...at, owners: none, deleting: false, finalizers: none };
}

function groupOfApiVersion(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function isDeletingDependents(n: GraphNode | undefined): boolean {
  return Boolean(n?.deleting && n.finalizers.includes(finalizerDeleteDependents));
}

/**
 * The garbage collector of `metadata.ownerReferences` (spec doc 1 §2.2; upstream's GC controller),
 * in-process: a dependency graph built from the object store's events (every resource type,
 * built-in and custom, since it watches the whole key space) and a bounded work queue.
 * - An object whose owners are all gone (deleted, or a uid that no longer exists: dangling
 *   references) is deleted, with the policy its own GC finalizers ask for (Background otherwise).
 * - An object with at least one live owner loses its references to dangling owners and to owners
 *   waiting for foreground deletion.
 * - Foreground: an owner holding `foregroundDeletion` is removed once no dependent with
 *   `blockOwnerDeletion: true` is left; its dependents are deleted (those with their own
 *   dependents in the foreground too, so the cascade waits level by level).
 * - Orphan: an owner holding `orphan` has its reference removed from every dependent, then loses
 *   the finalizer.
 * Decisions read the live objects; the graph only says whom to look at.
 */
export function createGarbageCollector(
  state: ServerState,
  queueOptions: Partial<WorkQueueOptions> = {},
  observedRevision: () => number = () => Number.POSITIVE_INFINITY,
): GarbageCollector {
  /**
   * uid → node. Most objects have no owners and no finalizers and are not being deleted (plain):
   * the graph holds such an object only while something names it as owner, and then as its key
   * alone (the rest is read from the key when asked). Holding every plain object cost a map entry
   * and a second copy of its uid (~90 B per stored object, issue 18's memory target); an owner
   * the graph does not hold is checked by a live read when a dependent names it, as one it has
   * not seen yet always was, and that read puts it back in the graph (`learnOwner`).
   */
  const nodes = new Map<string, GraphNode | string>();
  /** During a list (after `reset`, until `resync`) every plain object is kept: its dependents may come later in the list. */
  let keepPlain = true;
  const nodeOf = (uid: string): GraphNode | undefined => {
    const n = nodes.get(uid);
    return typeof n === 'string' ? plainNode(uid, n) : n;
  };
  /** owner uid → uids of the objects that reference it (also for owners not, or no longer, present). */
  const dependents = new Map<string, Set<string>>();
  let resyncPending = false;

  const queue: WorkQueue = createWorkQueue(
    async (item) => {
      const uid = item.slice(2);
      if (item.startsWith(deleteItem)) await attemptToDelete(uid);
      else await attemptToOrphan(uid);
    },
    {
      onError: (item, error, dropped) => {
        state.log.error(`garbage collector: ${item}${dropped ? ' (dropped)' : ''}`, error);
      },
      onOverflow: () => {
        if (resyncPending) return;
        resyncPending = true;
        void queue.idle().then(() => {
          resyncPending = false;
          gc.resync();
        });
      },
    },
    queueOptions,
  );

  const link = (owner: string, dep: string) => {
    let s = dependents.get(owner);
    if (!s) {
      s = new Set();
      dependents.set(owner, s);
    }
    s.add(dep);
  };
  const unlink = (owner: string, dep: string) => {
    const s = dependents.get(owner);
    if (!s) return;
    s.delete(dep);
    if (s.size > 0) return;
    dependents.delete(owner);
    if (!keepPlain && typeof nodes.get(owner) === 'string') nodes.delete(owner);
  };
  /**
   * A plain owner a dependent names, read live at store revision `readAt`, joins the graph. Only
   * while the graph has observed no event past `readAt`: a deletion after the read then still
   * reaches the graph after this and removes the node, so the graph never holds a stale owner.
   */
  const learnOwner = (owner: StoredObject, key: string, readAt: number) => {
    const uid = owner.metadata.uid;
    if (!uid || nodes.has(uid) || !dependents.has(uid) || observedRevision() > readAt) return;
    const facts = {
      owners: ownersOf(owner),
      finalizers: finalizersOf(owner),
      deleting: Boolean(owner.metadata.deletionTimestamp),
    };
    if (isPlain(facts)) nodes.set(uid, key);
  };
  const liveDependents = (uid: string): GraphNode[] => {
    const out: GraphNode[] = [];
    for (const d of dependents.get(uid) ?? []) {
      const n = nodeOf(d);
      if (n) out.push(n);
    }
    return out;
  };

  const defOf = (n: { group: string; resource: string }): ResourceDefinition | undefined =>
    state.registry.get(n.group, n.resource);

  type OwnerState = 'solid' | 'dangling' | 'waiting';

  /** Upstream's `classifyReferences` on the live owner. */
  async function classify(dep: GraphNode, ref: OwnerReference): Promise<OwnerState> {
    const def = state.registry.byKind(groupOfApiVersion(ref.apiVersion), ref.kind);
    // A kind this server does not serve cannot be checked: keep the dependent.
    if (!def) return 'solid';
    if (def.namespaced && dep.namespace === '') return 'dangling';
    const key = state.objects.key(
      { group: def.group, resource: def.resource, namespace: def.namespaced ? dep.namespace : '' },
      ref.name,
    );
    let owner: StoredObject | undefined;
    let readAt: number;
    try {
      ({ object: owner, revision: readAt } = await state.objects.get(key));
    } catch (e) {
      if (isUndecodableObjectError(e)) return 'solid';
      throw e;
    }
    if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
    learnOwner(owner, key, readAt);
    if (owner.metadata.deletionTimestamp && finalizersOf(owner).includes(finalizerDeleteDependents))
      return 'waiting';
    return 'solid';
  }

  async function deleteNode(n: GraphNode, policy: PropagationPolicy): Promise<void> {
    const def = defOf(n);
    if (!def) return;
    try {
      await deleteObject(
        state,
        { def, namespace: n.namespace, name: n.name },
        { propagationPolicy: policy, preconditions: { uid: n.uid } },
      );
    } catch (e) {
      // Gone or replaced by a new object of the same name: nothing to collect.
      if (isApiError(e, 'NotFound', 'Conflict', 'AlreadyExists')) return;
      throw e;
    }
  }

  async function attemptToDelete(uid: string): Promise<void> {
    const node = nodeOf(uid);
    if (!node) return;
    let live: StoredObject | undefined;
    try {
      ({ object: live } = await state.objects.get(node.key));
    } catch (e) {
      if (isUndecodableObjectError(e)) return;
      throw e;
    }
    if (!live || live.metadata.uid !== uid) return;
    if (live.metadata.deletionTimestamp) {
      if (finalizersOf(live).includes(finalizerDeleteDependents)) await processDeletingDependents(node);
      return;
    }
    const refs = ownersOf(live);
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const gone = new Set<string>();
    let waiting = 0;
    for (const ref of refs) {
      const s = await classify(node, ref);
      if (s === 'solid') solid.push(ref);
      else {
        gone.add(ref.uid);
        if (s === 'waiting') waiting++;
      }
    }
    if (solid.length > 0) {
      if (gone.size === 0) return;
      // Keep the object; stop pointing at owners that are gone or waiting on their dependents.
      await mutateObject(state.objects, node.key, uid, (obj) => {
        const kept = ownersOf(obj).filter((r) => !gone.has(r.uid));
        if (kept.length === ownersOf(obj).length) return undefined;
        obj.metadata.ownerReferences = kept;
        return obj;
      });
      return;
    }
    if (waiting > 0 && liveDependents(uid).length > 0) {
      // Its owner waits for it and it has dependents of its own: delete it in the foreground too.
      if (liveDependents(uid).some(isDeletingDependents)) {
        // A cycle: stop blocking the owner so the cascade cannot dead-lock.
        await mutateObject(state.objects, node.key, uid, (obj) => {
          const r = ownersOf(obj);
          if (!r.some((x) => x.blockOwnerDeletion)) return undefined;
          obj.metadata.ownerReferences = r.map((x) => ({ ...x, blockOwnerDeletion: false }));
          return obj;
        });
      }
      await deleteNode(node, 'Foreground');
      return;
    }
    const fin = finalizersOf(live);
    const policy: PropagationPolicy = fin.includes(finalizerOrphanDependents)
      ? 'Orphan'
      : fin.includes(finalizerDeleteDependents)
        ? 'Foreground'
        : 'Background';
    await deleteNode(node, policy);
  }

  /** An owner in foreground deletion: done when no blocking dependent is left. */
  async function processDeletingDependents(owner: GraphNode): Promise<void> {
    const blocking = liveDependents(owner.uid).filter((d) =>
      d.owners.some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) {
      await removeFinalizer(state.objects, owner.key, owner.uid, finalizerDeleteDependents);
      return;
    }
    for (const d of blocking) if (!d.deleting) queue.add(deleteItem + d.uid);
    // Each blocking dependent's removal queues the owner again.
  }

  async function attemptToOrphan(uid: string): Promise<void> {
    const node = nodeOf(uid);
    if (!node) return;
    const { object: live } = await state.objects.get(node.key);
    if (
      !live ||
      live.metadata.uid !== uid ||
      !live.metadata.deletionTimestamp ||
      !finalizersOf(live).includes(finalizerOrphanDependents)
    )
      return;
    for (const dep of liveDependents(uid)) {
      try {
        await mutateObject(state.objects, dep.key, dep.uid, (obj) => {
          const refs = ownersOf(obj);
          const kept = refs.filter((r) => r.uid !== uid);
          if (kept.length === refs.length) return undefined;
          if (kept.length > 0) obj.metadata.ownerReferences = kept;
          else delete obj.metadata.ownerReferences;
          return obj;
        });
      } catch (e) {
        if (!isUndecodableObjectError(e) && !isStoreError(e, 'NotFound')) throw e;
      }
    }
    await removeFinalizer(state.objects, node.key, uid, finalizerOrphanDependents);
  }

  const gc: GarbageCollector = {
    observe(ev) {
      const obj = ev.object;
      const uid = obj.metadata.uid;
      if (!uid) return;
      const old = nodeOf(uid);
      if (ev.type === 'delete') {
        nodes.delete(uid);
        for (const r of old?.owners ?? ownersOf(obj)) {
          unlink(r.uid, uid);
          if (isDeletingDependents(nodeOf(r.uid))) queue.add(deleteItem + r.uid);
        }
        for (const d of dependents.get(uid) ?? []) queue.add(deleteItem + d);
        return;
      }
      // Most puts: a plain object the graph does not hold and no dependent names. Nothing to record
      // or queue, so no node is built (a start writes ~130 default objects, each one of these).
      if (!keepPlain && !nodes.has(uid) && !dependents.has(uid) && isPlainObject(obj)) return;
      const node: GraphNode = {
        uid,
        key: ev.key,
        group: ev.group,
        resource: ev.resource,
        namespace: ev.namespace,
        name: obj.metadata.name,
        owners: ownersOf(obj),
        deleting: Boolean(obj.metadata.deletionTimestamp),
        finalizers: finalizersOf(obj),
      };
      if (!isPlain(node)) nodes.set(uid, node);
      else if (keepPlain || dependents.has(uid)) nodes.set(uid, node.key);
      else nodes.delete(uid);
      const before = new Set((old?.owners ?? []).map((r) => r.uid));
      const after = new Set(node.owners.map((r) => r.uid));
      for (const o of before) {
        if (after.has(o)) continue;
        unlink(o, uid);
        if (isDeletingDependents(nodeOf(o))) queue.add(deleteItem + o);
      }
      for (const o of after) if (!before.has(o)) link(o, uid);
      if (node.owners.some((r) => nodeOf(r.uid)?.deleting !== false)) queue.add(deleteItem + uid);
      if (node.deleting) {
        if (node.finalizers.includes(finalizerOrphanDependents)) queue.add(orphanItem + uid);
        if (node.finalizers.includes(finalizerDeleteDependents)) {
          queue.add(deleteItem + uid);
          if (!isDeletingDependents(old))
            for (const d of dependents.get(uid) ?? []) queue.add(deleteItem + d);
        }
      }
    },
    resync() {
      keepPlain = false;
      for (const [uid, n] of nodes) {
        if (typeof n === 'string') {
          if (!dependents.has(uid)) nodes.delete(uid);
          continue;
        }
        if (n.owners.length > 0) queue.add(deleteItem + n.uid);
        if (n.deleting && n.finalizers.includes(finalizerOrphanDependents)) queue.add(orphanItem + n.uid);
        if (isDeletingDependents(n)) queue.add(deleteItem + n.uid);
      }
    },
    reset() {
      nodes.clear();
      dependents.clear();
      keepPlain = true;
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
  return gc;
}
