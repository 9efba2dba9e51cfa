import type { NodeGraph } from '@orchard/authz';
import type { ServerState } from '../state.js';
import { type CacheInformer, type InformerHandlers, startCacheInformer } from '../storage/cache-informer.js';

/**
 * Keeps the Node authorizer's graph up to date from the watch caches of Pods, PersistentVolumes and
 * VolumeAttachments (those the server serves), as upstream's graph populator does from informers.
 * Decisions follow writes after the caches' fan-out; `waitFor(revision)` lets tests wait for it.
 */
export function startNodeGraphInformer(
  state: ServerState,
  graph: NodeGraph,
  signal: AbortSignal,
): CacheInformer {
  const { registry, flavor } = state;
  const sources: [string, string, InformerHandlers][] = [
    [
      '',
      'pods',
      {
        put: (o) => graph.setPod(o),
        delete: (o) => graph.deletePod(o.metadata.namespace ?? '', o.metadata.name),
      },
    ],
    [
      '',
      'persistentvolumes',
      {
        put: (o) => graph.setPersistentVolume(o),
        delete: (o) => graph.deletePersistentVolume(o.metadata.name),
      },
    ],
    [
      flavor.group('storage'),
      'volumeattachments',
      {
        put: (o) => graph.setVolumeAttachment(o),
        delete: (o) => graph.deleteVolumeAttachment(o.metadata.name),
      },
    ],
  ];
  const defs = sources.flatMap(([group, resource, handlers]) => {
    const def = registry.get(group, resource);
    return def ? [{ def, handlers }] : [];
  });
  return startCacheInformer(state, defs, signal, 'node authorizer graph');
}
