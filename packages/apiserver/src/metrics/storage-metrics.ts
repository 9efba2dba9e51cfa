/**
 * Storage metrics: `etcd_request_duration_seconds{operation,type}` around every call of the store
 * the object layer uses (named as upstream's, whatever the backend: dashboards built for etcd read
 * it), `apiserver_storage_objects{resource}` and `apiserver_registered_watchers{group,version,kind}`
 * read from the watch caches at scrape time (no work per request).
 */
import type { Store } from '@orchard/store';
import { Gauge } from 'prom-client';
import type { ResourceRegistry } from '../registry/registry.js';
import type { WatchCaches } from '../storage/watch-caches.js';
import { defineMetric, type ServerMetrics } from './server-metrics.js';

/** The `type` label of a storage key `/<group>/<resource>/…`: `resource` for core, `resource.group` otherwise. */
export function storageType(key: string): string {
  const second = key.indexOf('/', 1);
  if (second < 0) return '';
  const group = key.slice(1, second);
  const third = key.indexOf('/', second + 1);
  const resource = key.slice(second + 1, third < 0 ? undefined : third);
  return group === 'core' ? resource : `${resource}.${group}`;
}

/**
 * `store` with each call timed into `metrics.storageDuration` (operation `get`, `list`, `create`,
 * `update`, `delete`, `compact`; `createAll` as a `create` per key); a failed call is observed too. Watches are streams and the
 * revision probe of consistent reads is not timed (it made a cached GET measurably dearer).
 */
export function instrumentStore(store: Store, metrics: ServerMetrics): Store {
  const h = metrics.storageDuration;
  /** `p`, with the seconds it took recorded once it settles, fulfilled or not. */
  const timing = <T>(p: Promise<T>, record: (seconds: number) => void): Promise<T> => {
    const t0 = performance.now();
    const done = () => record((performance.now() - t0) / 1000);
    return p.then(
      (v) => {
        done();
        return v;
      },
      (e: unknown) => {
        done();
        throw e;
      },
    );
  };
  const timed = <T>(operation: string, type: string, p: Promise<T>): Promise<T> =>
    timing(p, (seconds) => h.observe([operation, type], seconds));
  const { createAll } = store;
  return {
    ...(createAll && {
      // Each key's create took the batch's time to be acknowledged: one `create` observation each.
      createAll: (entries) =>
        timing(createAll.call(store, entries), (seconds) => {
          for (const e of entries) h.observe(['create', storageType(e.key)], seconds);
        }),
    }),
    // Not timed: the revision probe of every consistent read (a GET's whole storage work here).
    currentRevision: () => store.currentRevision(),
    compactedRevision: () => store.compactedRevision(),
    get: (key, options) => timed('get', storageType(key), store.get(key, options)),
    list: (prefix, options) => timed('list', storageType(prefix), store.list(prefix, options)),
    create: (key, value) => timed('create', storageType(key), store.create(key, value)),
    update: (key, tryUpdate, options) =>
      timed('update', storageType(key), store.update(key, tryUpdate, options)),
    delete: (key, options) => timed('delete', storageType(key), store.delete(key, options)),
    watch: (prefix, options) => store.watch(prefix, options),
    compact: (revision) => timed('compact', '', store.compact(revision)),
    close: () => store.close(),
  };
}

/**
 * Registers the two cache gauges on `metrics.registry`: each scrape walks the caches (one per
 * resource that was read) for their object and watcher counts.
 */
export function registerCacheMetrics(
  metrics: ServerMetrics,
  caches: WatchCaches,
  registry: ResourceRegistry,
): void {
  const objects: Gauge<'resource'> = defineMetric(
    Gauge<'resource'>,
    {
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      stabilityLevel: 'STABLE',
      collect() {
        objects.reset();
        for (const c of caches.entries())
          objects.set(
            { resource: c.group === '' ? c.resource : `${c.resource}.${c.group}` },
            c.stats.objects,
          );
      },
    },
    metrics.registry,
    metrics.stability,
  );
  const watchers: Gauge<'group' | 'version' | 'kind'> = defineMetric(
    Gauge<'group' | 'version' | 'kind'>,
    {
      name: 'apiserver_registered_watchers',
      help: 'Number of currently registered watchers for a given resources',
      labelNames: ['group', 'version', 'kind'],
      stabilityLevel: 'ALPHA',
      collect() {
        watchers.reset();
        for (const c of caches.entries()) {
          const def = registry.get(c.group, c.resource);
          if (!def) continue;
          watchers.set(
            { group: def.group, version: def.versions[0] ?? '', kind: def.kind },
            c.stats.watchers,
          );
        }
      },
    },
    metrics.registry,
    metrics.stability,
  );
}
