import { createMemoryStore, type Store } from '@orchard/store';
import { createTransformingStore } from '@orchard/store-encryption';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { instrumentStore } from './metrics/storage-metrics.js';
import type { ApiServerOptions } from './options.js';
import { ObjectStore } from './storage/object-store.js';
import { WatchCaches } from './storage/watch-caches.js';

/** The storage layers of one server, bottom up. */
export interface ServerStorage {
  /** The store every reader goes through: the backend, below it the encryption at rest if any. */
  readonly store: Store;
  /** The server created the store (no `options.store`), so `close()` closes it. */
  readonly ownsStore: boolean;
  readonly objects: ObjectStore;
  readonly watchCaches: WatchCaches;
}

/**
 * Stacks the server's storage: the backend (`options.store`, or a new memory store), encryption at
 * rest, the metrics instrumentation, the object store and the per-resource watch caches.
 */
export function createServerStorage(
  options: ApiServerOptions,
  metrics: ServerMetrics | undefined,
): ServerStorage {
  const ownsStore = options.store === undefined;
  const backing = options.store ?? createMemoryStore();
  const encryption = options.encryption;
  // Below every reader (object store, watch caches, controllers, the unsafe delete), so an
  // encrypted value is one write with one revision on any backend.
  const store = encryption
    ? createTransformingStore(backing, (key) => {
        const gr = ObjectStore.groupResourceOf(key);
        return gr ? encryption.transformerFor(gr) : undefined;
      })
    : backing;
  const objects = new ObjectStore(metrics ? instrumentStore(store, metrics) : store);
  const watchCaches = new WatchCaches(
    objects,
    options.flavor,
    options.watchCache,
    options.continueTtlMs,
    options.continueTokenKey,
    (prefix, e) =>
      options.logger.error(
        `watch cache ${prefix}: the store watch failed; watches end with 410, re-listing`,
        e,
      ),
  );
  return { store, ownsStore, objects, watchCaches };
}
