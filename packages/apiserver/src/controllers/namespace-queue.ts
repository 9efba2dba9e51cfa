import { createWorkQueue, type WorkQueue } from '../lifecycle/work-queue.js';
import type { ServerState } from '../state.js';

/**
 * The work queue of a controller that keeps one object in every active namespace (the default
 * ServiceAccount, the root-CA ConfigMap): `reconcile(namespace)` runs only while the namespace
 * exists and is not terminating and while `resource` (core group) is served; failures are logged
 * under `name` and retried by the queue.
 */
export function createNamespaceQueue(
  state: ServerState,
  name: string,
  resource: string,
  reconcile: (namespace: string) => Promise<void>,
): WorkQueue {
  const { objects } = state;
  return createWorkQueue(
    async (namespace) => {
      if (!state.registry.get('', resource)) return;
      const key = objects.key({ group: '', resource: 'namespaces', namespace: '' }, namespace);
      const ns = (await objects.get(key)).object;
      if (!ns || ns.metadata.deletionTimestamp) return;
      await reconcile(namespace);
    },
    {
      onError: (item, error, dropped) =>
        state.log.error(`${name}: ${item}${dropped ? ' (dropped)' : ''}`, error),
      onOverflow: () => {},
    },
    { workers: 2 },
  );
}
