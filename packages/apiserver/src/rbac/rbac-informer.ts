import type { StoredObject } from '@orchard/meta';
import type { ClusterRole, ClusterRoleBinding, RbacEvaluator, Role, RoleBinding } from '@orchard/rbac';
import type { ServerState } from '../state.js';
import { type InformerHandlers, startCacheInformer } from '../storage/cache-informer.js';
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
  let clusterRolesChanged = false;
  const ns = (o: StoredObject) => o.metadata.namespace ?? '';
  const handlers: Record<RbacResource, InformerHandlers> = {
    roles: {
      put: (o) => evaluator.setRole(o as unknown as Role),
      delete: (o) => evaluator.deleteRole(ns(o), o.metadata.name),
    },
    clusterroles: {
      put(o) {
        evaluator.setClusterRole(o as unknown as ClusterRole);
        clusterRoles.set(o.metadata.name, o as unknown as ClusterRole);
        clusterRolesChanged = true;
      },
      delete(o) {
        evaluator.deleteClusterRole(o.metadata.name);
        clusterRoles.delete(o.metadata.name);
        clusterRolesChanged = true;
      },
      afterBatch() {
        if (!clusterRolesChanged) return;
        clusterRolesChanged = false;
        hooks.onClusterRoles?.(clusterRoles);
      },
    },
    rolebindings: {
      put: (o) => evaluator.setRoleBinding(o as unknown as RoleBinding),
      delete: (o) => evaluator.deleteRoleBinding(ns(o), o.metadata.name),
    },
    clusterrolebindings: {
      put: (o) => evaluator.setClusterRoleBinding(o as unknown as ClusterRoleBinding),
      delete: (o) => evaluator.deleteClusterRoleBinding(o.metadata.name),
    },
  };
  const defs = rbacResourceNames.flatMap((resource) => {
    const def = state.registry.get(group, resource);
    return def ? [{ def, handlers: handlers[resource] }] : [];
  });
  const informer = startCacheInformer(state, defs, signal, 'rbac informer');
  return { synced: informer.synced, clusterRoles, waitFor: (revision) => informer.waitFor(revision) };
}
