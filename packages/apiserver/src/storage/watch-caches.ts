import type { Flavor, StoredObject } from '@orchard/meta';
import { type ContinueCodec, createContinueCodec } from '@orchard/pager';
import { createWatchCache, type WatchCache, type WatchCacheStats } from '@orchard/watch-cache';
import type { ObjectStore } from './object-store.js';

/** Watch-cache settings of the server (see `ApiServerOptions.watchCache`). */
export interface WatchCacheSettings {
  /** History retained for watches and Exact reads (spec doc 1 §8: 5 minutes). */
  windowMs: number;
  /** At most this many events per resource, whatever their age. */
  maxEvents: number;
  /** How long a request for a future resourceVersion waits before 504 (upstream: 3 s). */
  tooLargeWaitMs: number;
  /** Interval of BOOKMARK events to watches with `allowWatchBookmarks=true` (upstream: ~1 min). */
  bookmarkIntervalMs: number;
  /** Events a watcher may lag behind before it is closed (it then resumes from its last version). */
  watcherBufferSize: number;
  /** Bytes a watch response may have buffered in its socket (an unread client) before it is closed. */
  maxWatchBufferBytes: number;
}

/** Defaults of `WatchCacheSettings`: the spec's 5-minute watch window. */
export const defaultWatchCacheSettings: Readonly<WatchCacheSettings> = Object.freeze({
  windowMs: 5 * 60_000,
  maxEvents: 100_000,
  tooLargeWaitMs: 3000,
  bookmarkIntervalMs: 60_000,
  watcherBufferSize: 1024,
  maxWatchBufferBytes: 16 * 1024 * 1024,
});

/**
 * One watch cache per resource (created on first use, replaying the store's retained history so
 * versions handed out before it existed stay watchable), plus the server's continue-token codec.
 * Caches watch the whole keyspace for progress, so consistent reads are served from the cache.
 */
export class WatchCaches {
  readonly settings: WatchCacheSettings;
  readonly continueCodec: ContinueCodec;
  private readonly caches = new Map<string, WatchCache<StoredObject>>();
  /** The group and resource of each cache, by prefix (for metrics). */
  private readonly resources = new Map<string, { group: string; resource: string }>();

  constructor(
    private readonly objects: ObjectStore,
    private readonly flavor: Flavor,
    settings: Partial<WatchCacheSettings>,
    continueTtlMs: number,
    continueTokenKey?: Uint8Array,
    /** Told when a cache's store watch (or the re-list after it) fails; the cache recovers by itself. */
    private readonly onStoreError?: (prefix: string, error: unknown) => void,
  ) {
    this.settings = { ...defaultWatchCacheSettings, ...settings };
    this.continueCodec = createContinueCodec({
      ttlMs: continueTtlMs,
      ...(continueTokenKey ? { key: continueTokenKey } : {}),
    });
  }

  /** The cache of a resource (all namespaces). */
  for(def: { group: string; resource: string }): WatchCache<StoredObject> {
    const prefix = this.objects.prefix({ group: def.group, resource: def.resource, namespace: '' });
    let cache = this.caches.get(prefix);
    if (!cache) {
      const s = this.settings;
      cache = createWatchCache<StoredObject>(this.objects.store, {
        prefix,
        progressPrefix: '/',
        decode: (kv) => this.objects.decodeShared(kv),
        windowMs: s.windowMs,
        maxEvents: s.maxEvents,
        tooLargeWaitMs: s.tooLargeWaitMs,
        bookmarkIntervalMs: s.bookmarkIntervalMs,
        watcherBufferSize: s.watcherBufferSize,
        domain: this.flavor.domain,
        replayHistory: true,
        onStoreError: (e) => this.onStoreError?.(prefix, e),
      });
      this.caches.set(prefix, cache);
      this.resources.set(prefix, { group: def.group, resource: def.resource });
    }
    return cache;
  }

  /**
   * Re-initializes every cache from the store, as upstream's cacher does when its store watch fails
   * (e.g. after a compaction): every open watch ends with an ERROR 410, and clients relist.
   */
  async restartAll(): Promise<void> {
    await Promise.all([...this.caches.values()].map((c) => c.restart()));
  }

  /** Every cache created so far with its resource and sizes (object and watcher counts), for metrics. */
  *entries(): Iterable<{ group: string; resource: string; stats: WatchCacheStats }> {
    for (const [prefix, cache] of this.caches) {
      const r = this.resources.get(prefix);
      if (r) yield { ...r, stats: cache.stats() };
    }
  }

  /** Sends a BOOKMARK to every watch that allows them, now. */
  sendBookmarks(): void {
    for (const c of this.caches.values()) c.sendBookmarks();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.caches.values()].map((c) => c.stop()));
    this.caches.clear();
    this.resources.clear();
  }
}
