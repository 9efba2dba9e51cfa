import { type ApiObject, type Flavor, newUid, nowRfc3339 } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { ObjectStore } from '../../storage/object-store.js';
import type { ResourceRegistry } from '../registry.js';
import { namespaceNameLabel } from './namespaces.js';

/** An object the server creates at start when its type is served and it does not exist yet. */
export interface BootstrapObject {
  readonly group: string;
  readonly resource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly object: ApiObject;
}

/** The flavor's default namespaces (`default`, `<flavor>-system`, `<flavor>-public`, …), Active. */
export function builtinObjects(flavor: Flavor): BootstrapObject[] {
  const creationTimestamp = nowRfc3339();
  return flavor.defaultNamespaces.map((name) => ({
    group: '',
    resource: 'namespaces',
    namespace: '',
    object: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        uid: newUid(),
        creationTimestamp,
        labels: { [namespaceNameLabel(flavor)]: name },
      },
      spec: { finalizers: [flavor.namespaceFinalizer] },
      status: { phase: 'Active' },
    },
  }));
}

/** Creates each object whose type the registry serves; one that exists already is left as it is. */
export async function createBootstrapObjects(
  objects: ObjectStore,
  registry: ResourceRegistry,
  list: readonly BootstrapObject[],
): Promise<void> {
  for (const b of list) {
    if (!registry.get(b.group, b.resource)) continue;
    const name = b.object.metadata?.name ?? '';
    const key = objects.key({ group: b.group, resource: b.resource, namespace: b.namespace }, name);
    try {
      await objects.create(key, b.object);
    } catch (e) {
      if (!isStoreError(e, 'AlreadyExists')) throw e;
    }
  }
}
