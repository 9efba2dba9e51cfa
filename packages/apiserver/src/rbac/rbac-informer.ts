import type { StoredObject } from '@orchard/meta';
import type { ClusterRole, ClusterRoleBinding, RbacEvaluator, Role, RoleBinding } from '@orchard/rbac';
import type { CacheWatcher, WatchCacheEvent } from '@orchard/watch-cache';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ServerState } from '../state.js';
import { rbacGroup } from './rbac-resources.js';

type RbacResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
const rbacResourceNames: readonly RbacResource[] = [
  'roles',
  'clusterroles',
  'rolebindings',
  'clusterrolebindings',
];

/** What the informer reports besides feeding the evaluator (the aggregation controller listens). */
export interface RbacInformerHooks {
  /** After a batch of ClusterRole changes was applied; `all` is every ClusterRole now known. */
  onClusterRoles?(all: ReadonlyMap<string, ClusterRole>): void;
}

/** The running informer: `synced` resolves once every kind's initial state is in the evaluator. */
export interface RbacInformer {
  readonly synced: Promise<void>;
  /** The ClusterRoles as last seen (by name). */
  readonly clusterRoles: ReadonlyMap<string, ClusterRole>;
  /** Resolves once every kind has applied the changes up to `revision` (a write's resourceVersion). */
  waitFor(revision: number): Promise<void>;
}

function nsName(o: StoredObject): [string, string] {
  return [o.metadata.namespace ?? '', o.metadata.name];
}

/**
 * Feeds `evaluator` from the served RBAC objects through their watch caches (an in-process informer):
 * the initial state, then every change. A watch the cache ends (a restart after compaction) is
 * re-opened with the full state, and objects gone meanwhile are removed. Decisions therefore follow
 * writes after the cache's fan-out (one macrotask), as upstream's informer-fed RBAC authorizer does.
 */
export function startRbacInformer(
  state: ServerState,
  evaluator: RbacEvaluator,
  signal: AbortSignal,
  hooks: RbacInformerHooks = {},
): RbacInformer {
  const group = rbacGroup(state.flavor);
  const clusterRoles = new Map<string, ClusterRole>();
  const defs = rbacResourceNames
    .map((resource) => ({ resource, def: state.registry.get(group, resource) }))
    .filter((x): x is { resource: RbacResource; def: ResourceDefinition } => x.def !== undefined);

  function apply(resource: RbacResource, type: 'put' | 'delete', o: StoredObject): void {
    const [ns, name] = nsName(o);
    switch (resource) {
      case 'roles':
        if (type === 'put') evaluator.setRole(o as unknown as Role);
        else evaluator.deleteRole(ns, name);
        break;
      case 'clusterroles':
        if (type === 'put') {
          evaluator.setClusterRole(o as unknown as ClusterRole);
          clusterRoles.set(name, o as unknown as ClusterRole);
        } else {
          evaluator.deleteClusterRole(name);
          clusterRoles.delete(name);
        }
        break;
      case 'rolebindings':
        if (type === 'put') evaluator.setRoleBinding(o as unknown as RoleBinding);
        else evaluator.deleteRoleBinding(ns, name);
        break;
      case 'clusterrolebindings':
        if (type === 'put') evaluator.setClusterRoleBinding(o as unknown as ClusterRoleBinding);
        else evaluator.deleteClusterRoleBinding(name);
        break;
    }
  }

  async function run(def: ResourceDefinition, resource: RbacResource, onSynced: () => void): Promise<void> {
    const cache = state.watchCaches.for(def);
    let known = new Map<string, StoredObject>();
    let first = true;
    while (!signal.aborted) {
      let watcher: CacheWatcher<StoredObject>;
      try {
        watcher = await cache.watch({
          start: { kind: 'MostRecent' },
          initialEvents: true,
          initialEventsEndBookmark: true,
        });
      } catch (e) {
        if (signal.aborted) return;
        state.log.error(`rbac informer: watch of ${resource} failed`, e);
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const onAbort = () => watcher.close();
      signal.addEventListener('abort', onAbort, { once: true });
      // Objects of the previous watch not listed again were deleted while no watch was open.
      const relisted = new Map<string, StoredObject>();
      let initial = true;
      await new Promise<void>((resolve) => {
        watcher.listen((events: WatchCacheEvent<StoredObject>[]) => {
          let clusterRolesChanged = false;
          for (const ev of events) {
            if (ev.type === 'ERROR') continue;
            if (ev.type === 'BOOKMARK') {
              if (initial) {
                initial = false;
                for (const [k, o] of known) if (!relisted.has(k)) apply(resource, 'delete', o);
                known = relisted;
                if (resource === 'clusterroles') clusterRolesChanged = true;
                if (first) {
                  first = false;
                  onSynced();
                }
              }
              continue;
            }
            const o = ev.object;
            const key = nsName(o).join('/');
            if (ev.type === 'DELETED') {
              known.delete(key);
              apply(resource, 'delete', o);
            } else {
              (initial ? relisted : known).set(key, o);
              apply(resource, 'put', o);
            }
            if (resource === 'clusterroles') clusterRolesChanged = true;
          }
          if (clusterRolesChanged && !initial) hooks.onClusterRoles?.(clusterRoles);
        }, resolve);
      });
      signal.removeEventListener('abort', onAbort);
    }
  }

  const synced = Promise.all(
    defs.map(
      ({ def, resource }) =>
        new Promise<void>((onSynced) => {
          run(def, resource, onSynced).catch((e) => state.log.error(`rbac informer: ${resource} stopped`, e));
        }),
    ),
  ).then(() => undefined);

  return {
    synced,
    clusterRoles,
    async waitFor(revision) {
      await synced;
      // Each cache follows the whole store's progress; once all reached `revision`, the fan-out of
      // their changes (scheduled with setImmediate) has run one turn later.
      for (let i = 0; i < 10_000 && !signal.aborted; i++) {
        if (defs.every(({ def }) => state.watchCaches.for(def).revision >= revision)) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setImmediate(r));
    },
  };
}
