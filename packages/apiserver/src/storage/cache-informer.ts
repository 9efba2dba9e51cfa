import type { StoredObject } from '@orchard/meta';
import type { CacheWatcher, WatchCacheEvent } from '@orchard/watch-cache';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ServerState } from '../state.js';

/** What an in-process informer does with the objects of one resource. */
export interface InformerHandlers {
  /** An object was listed, added or modified. */
  put(o: StoredObject): void;
  /** An object was deleted (or was gone when a re-opened watch listed everything again). */
  delete(o: StoredObject): void;
  /** After each batch of events handled once the initial state is in (batch the work it causes). */
  afterBatch?(): void;
}

/** A running informer over one or more resources' watch caches. */
export interface CacheInformer {
  /** Resolves once every resource's initial state went through the handlers. */
  readonly synced: Promise<void>;
  /** Resolves once every resource has handled the changes up to `revision` (a write's resourceVersion). */
  waitFor(revision: number): Promise<void>;
}

const nsName = (o: StoredObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * Feeds `handlers` from the watch caches of `defs` (an in-process informer): the initial state,
 * then every change, until `signal` aborts. A watch the cache ends (a restart after compaction) is
 * re-opened with the full state, and objects gone meanwhile are handed to `delete`. Handlers run
 * after the cache's fan-out (one macrotask after the write) and must not throw.
 */
export function startCacheInformer(
  state: ServerState,
  defs: readonly { readonly def: ResourceDefinition; readonly handlers: InformerHandlers }[],
  signal: AbortSignal,
  label: string,
): CacheInformer {
  async function run(def: ResourceDefinition, h: InformerHandlers, onSynced: () => void): Promise<void> {
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
        state.log.error(`${label}: watch of ${def.resource} failed`, e);
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const onAbort = () => watcher.close();
      signal.addEventListener('abort', onAbort, { once: true });
      const relisted = new Map<string, StoredObject>();
      let initial = true;
      await new Promise<void>((resolve) => {
        watcher.listen((events: readonly WatchCacheEvent<StoredObject>[]) => {
          for (const ev of events) {
            if (ev.type === 'ERROR') continue;
            if (ev.type === 'BOOKMARK') {
              if (!initial) continue;
              initial = false;
              for (const [k, o] of known) if (!relisted.has(k)) h.delete(o);
              known = relisted;
              if (first) {
                first = false;
                onSynced();
              }
              continue;
            }
            const key = nsName(ev.object);
            if (ev.type === 'DELETED') {
              known.delete(key);
              h.delete(ev.object);
            } else {
              (initial ? relisted : known).set(key, ev.object);
              h.put(ev.object);
            }
          }
          if (!initial) h.afterBatch?.();
        }, resolve);
      });
      signal.removeEventListener('abort', onAbort);
    }
  }

  const synced = Promise.all(
    defs.map(
      ({ def, handlers }) =>
        new Promise<void>((onSynced) => {
          run(def, handlers, onSynced).catch((e) => state.log.error(`${label}: ${def.resource} stopped`, e));
        }),
    ),
  ).then(() => undefined);

  return {
    synced,
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
