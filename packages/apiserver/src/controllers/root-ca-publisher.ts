import { newUid, nowRfc3339 } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { ServerState } from '../state.js';
import { createNamespaceQueue } from './namespace-queue.js';
import type { ObservingController } from './service-account-controller.js';

const description =
  'Contains a CA bundle that can be used to verify the API server when using internal endpoints ' +
  'such as the internal service IP or the default service name. No other usage is guaranteed.';

/**
 * Upstream's root-CA publisher: every active namespace holds a ConfigMap (`kube-root-ca.crt` under
 * the kubernetes flavor) whose `ca.crt` is the CA bundle that verifies this server, so workloads
 * can reach it; one that is deleted or edited is put back.
 */
export function createRootCaPublisher(state: ServerState, bundle: string): ObservingController {
  const { objects, flavor } = state;
  const name = flavor.rootCaConfigMap;
  const data = { 'ca.crt': bundle };
  const annotations = { [flavor.descriptionAnnotation]: description };
  const queue = createNamespaceQueue(state, 'root-ca publisher', 'configmaps', ensure);

  async function ensure(namespace: string): Promise<void> {
    const key = objects.key({ group: '', resource: 'configmaps', namespace }, name);
    const current = (await objects.get(key)).object;
    if (current === undefined) {
      try {
        await objects.create(key, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace, uid: newUid(), creationTimestamp: nowRfc3339(), annotations },
          data,
        });
      } catch (e) {
        if (!isStoreError(e, 'AlreadyExists')) throw e;
        queue.add(namespace);
      }
      return;
    }
    if (current.metadata.deletionTimestamp) return;
    const currentData = current.data as Record<string, unknown> | undefined;
    const sameData =
      currentData !== undefined && Object.keys(currentData).length === 1 && currentData['ca.crt'] === bundle;
    if (sameData) return;
    try {
      // objects.update makes no write when nothing changes, so a publisher race settles quietly.
      await objects.update(key, (cur) => ({ ...cur, data: { ...data } }));
    } catch (e) {
      if (!isStoreError(e, 'NotFound')) throw e;
      queue.add(namespace);
    }
  }

  return {
    observe(ev) {
      if (ev.group !== '') return;
      if (ev.resource === 'namespaces' && ev.type === 'put' && !ev.object.metadata.deletionTimestamp)
        queue.add(ev.object.metadata.name);
      else if (ev.resource === 'configmaps' && ev.object.metadata.name === name) queue.add(ev.namespace);
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
}
