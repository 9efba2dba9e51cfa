import { newUid, nowRfc3339 } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { ObservedObject } from '../lifecycle/observed.js';
import type { ServerState } from '../state.js';
import { createNamespaceQueue } from './namespace-queue.js';

/** A controller fed by the lifecycle's one store watch. */
export interface ObservingController {
  observe(ev: ObservedObject): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export const defaultServiceAccountName = 'default';

/**
 * Upstream's service-account controller: every active namespace has a `default` ServiceAccount;
 * one that is deleted is created again (with a new uid, so tokens of the old one stop working
 * under `--service-account-lookup`). A terminating namespace gets none.
 */
export function createServiceAccountController(state: ServerState): ObservingController {
  const objects = state.objects;
  const queue = createNamespaceQueue(state, 'service-account controller', 'serviceaccounts', ensure);

  async function ensure(namespace: string): Promise<void> {
    const key = objects.key({ group: '', resource: 'serviceaccounts', namespace }, defaultServiceAccountName);
    if ((await objects.get(key)).object) return;
    try {
      await objects.create(key, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: {
          name: defaultServiceAccountName,
          namespace,
          uid: newUid(),
          creationTimestamp: nowRfc3339(),
        },
      });
    } catch (e) {
      if (!isStoreError(e, 'AlreadyExists')) throw e;
    }
  }

  return {
    observe(ev) {
      if (ev.group !== '') return;
      if (ev.resource === 'namespaces' && ev.type === 'put' && !ev.object.metadata.deletionTimestamp)
        queue.add(ev.object.metadata.name);
      else if (
        ev.resource === 'serviceaccounts' &&
        ev.type === 'delete' &&
        ev.object.metadata.name === defaultServiceAccountName
      )
        queue.add(ev.namespace);
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
}
