import type { ApiObject } from '@orchard/meta';
import type { Store } from '@orchard/store';
import {
  defaultBookmarkObject,
  initialEvents,
  inSlices,
  sendBookmark,
  sharedBookmarks,
  startBookmarkTimer,
} from './bookmarks.js';
import { WatchCacheError } from './errors.js';
import { EventWindow } from './event-window.js';
import { pageFromStore, pageOfState } from './list-page.js';
import { corruptValue, ObjectState, type StateView } from './object-state.js';
import { PastState } from './past-state.js';
import type {
  CacheGetResult,
  CacheListOptions,
  CacheListResult,
  CacheWatchOptions,
  ReadRevision,
} from './read-options.js';
import { RevisionSync } from './revision-sync.js';
import { StoreReflector } from './store-reflector.js';
import { resolveWatchCacheOptions, type WatchCacheOptions } from './watch-cache-options.js';
import type { CachedChange, CacheWatcher } from './watcher.js';
import { WatcherSet } from './watcher-set.js';

/** Sizes and positions of a cache, for metrics and tests. */
export interface WatchCacheStats {
  objects: number;
  windowEvents: number;
  watchers: number;
  revision: number;
  oldestRevision: number;
  /** Failures of the store watch or of a re-list after one (each also reported to `onStoreError`). */
  storeErrors: number;
}

/**
 * A cache in front of one resource's keys in a Store: the current decoded objects plus a sliding
 * window of changes. Serves get, list and watch with every resourceVersion semantic of spec doc 1
 * §4.5–4.6; fans every change out to all watchers without waiting for any of them.
 *
 * Objects handed out are shared with the cache: callers must not mutate them.
 */
export interface WatchCache<T extends ApiObject = ApiObject> {
  /** Resolves once the initial list is loaded (every read awaits it). */
  ready(): Promise<void>;
  /** The revision the cache has caught up with. */
  readonly revision: number;
  /** The oldest revision a watch may start from (`TooOldResourceVersion` below it). */
  readonly oldestRevision: number;
  get(key: string, revision?: ReadRevision): Promise<CacheGetResult<T>>;
  list(options?: CacheListOptions<T>): Promise<CacheListResult<T>>;
  /** Starts a watch; rejects with `TooOldResourceVersion` / `TooLargeResourceVersion`. */
  watch(options: CacheWatchOptions<T>): Promise<CacheWatcher<T>>;
  /** Sends a BOOKMARK now to every watcher that allows them (the timer calls this). */
  sendBookmarks(): void;
  /** Sends a BOOKMARK now to one watcher, if it allows them (upstream sends one just before a watch's deadline). */
  sendBookmark(watcher: CacheWatcher<T>): void;
  /** Drops window events older than the time/count limits now (also done on every change). */
  evict(): void;
  /**
   * Re-lists from the store; every watcher ends with an ERROR `Reset` event. Rejects when the list
   * fails (reported to `onStoreError`; the cache keeps retrying, and reads reject until it succeeds).
   */
  restart(): Promise<void>;
  stats(): WatchCacheStats;
  /** Stops watching the store; every watcher ends with `Stopped`. */
  stop(): Promise<void>;
}

/** Watchers bookmarked per event-loop turn by the periodic round. */
const bookmarkSlice = 500;

/** Where a non-Exact read is served: the cache's current state, or the store at a revision. */
type ReadSource = { from: 'cache' } | { from: 'store'; at: number };

/**
 * Creates the cache of the keys under `options.prefix` and starts loading them (`ready()` resolves
 * once loaded). Composes the parts: the current state (`ObjectState`), the window of changes
 * (`EventWindow`), states at past revisions (`PastState`), the caught-up revision (`RevisionSync`),
 * the store follower (`StoreReflector`) and the watchers with their fan-out (`WatcherSet`).
 */
export function createWatchCache<T extends ApiObject = ApiObject>(
  store: Store,
  options: WatchCacheOptions<T>,
): WatchCache<T> {
  const o = resolveWatchCacheOptions(options);
  const bookmarkObject = sharedBookmarks(o.bookmarkObject ?? defaultBookmarkObject<T>(o.domain));
  const state = new ObjectState<T>(o.prefix, o.decode);
  const window = new EventWindow<T>(o);
  const past = new PastState<T>();
  const sync = new RevisionSync();
  const watchers = new WatcherSet<T>(o.watcherBufferSize);
  let readyPromise: Promise<void>;

  const reflector = new StoreReflector(store, o, {
    replace(kvs, revision) {
      state.load(kvs);
      past.clear();
      window.reset(revision);
      sync.set(revision);
    },
    apply(ev) {
      if (state.owns(ev.kv.key)) {
        const change = state.apply(ev, o.now());
        if (change) {
          window.push(change);
          watchers.enqueue(change);
          cache.evict();
        }
      }
      sync.advance(ev.revision);
    },
    // The reflector's own recovery: it retries a failed re-list itself.
    restart: (error) => reinitialize(resetReason(error)),
  });

  // The periodic round bookmarks the watchers a slice per turn, each slice after the changes before it.
  const bookmarkTimer = startBookmarkTimer(o.bookmarkIntervalMs, () => {
    cache.evict();
    inSlices([...watchers], bookmarkSlice, (slice) => {
      watchers.flush();
      for (const w of slice) sendBookmark(w, sync.revision, bookmarkObject);
    });
  });

  /** Ends every watcher with `reason` (an ERROR event first) and re-lists. */
  async function reinitialize(reason: WatchCacheError): Promise<void> {
    watchers.endAll(reason, { revision: sync.revision });
    readyPromise = reflector.load();
    await readyPromise;
  }

  /** The oldest revision servable now: the window's, raised to the store's compaction point. */
  async function servableFrom(): Promise<number> {
    if (!o.honorStoreCompaction) return window.oldest;
    return Math.max(window.oldest, await store.compactedRevision());
  }

  function ensureExists(rev: number): Promise<void> {
    return sync.ensureStoreReached(store, rev, o.tooLargeWaitMs, o.pollIntervalMs);
  }

  async function resolveRead(rv: ReadRevision): Promise<ReadSource> {
    await readyPromise;
    if (rv.kind === 'Any') return { from: 'cache' };
    let want: number;
    if (rv.kind === 'MostRecent') {
      want = await store.currentRevision();
    } else {
      want = rv.revision;
      if (sync.revision >= want) return { from: 'cache' };
      await ensureExists(want);
    }
    if (await sync.wait(want, o.consistentReadWaitMs)) return { from: 'cache' };
    return { from: 'store', at: Math.max(want, await store.currentRevision()) };
  }

  /** The state at exactly `rev`, from the window; or `store` when only the store can serve it. */
  async function exactState(rev: number, storeFallback: boolean): Promise<StateView<T> | 'store'> {
    if (rev > sync.revision) {
      await ensureExists(rev);
      if (!(await sync.wait(rev, o.consistentReadWaitMs))) return 'store';
    }
    const from = await servableFrom();
    cache.evict();
    if (rev < window.oldest || rev < from) {
      if (storeFallback) return 'store';
      throw tooOld(rev, Math.max(window.oldest, from));
    }
    state.checkCorrupt();
    return past.at(rev, sync.revision, state, window);
  }

  const listFromStore = (at: number, lo: CacheListOptions<T>) =>
    pageFromStore(store, o.prefix, o.decode, at, lo);

  const cache: WatchCache<T> = {
    ready: () => readyPromise,
    get revision() {
      return sync.revision;
    },
    get oldestRevision() {
      return window.oldest;
    },

    async get(key, revision = { kind: 'MostRecent' }) {
      await readyPromise;
      if (revision.kind === 'Exact') {
        const st = await exactState(revision.revision, false);
        if (st !== 'store') return { object: st.entries.get(key), revision: revision.revision };
      }
      const where: ReadSource =
        revision.kind === 'Exact' ? { from: 'store', at: revision.revision } : await resolveRead(revision);
      if (where.from === 'cache') {
        state.checkCorrupt(key);
        return { object: state.get(key), revision: sync.revision };
      }
      const res = await store.get(key, { atRevision: where.at });
      if (!res.kv) return { object: undefined, revision: res.revision };
      try {
        return { object: o.decode(res.kv), revision: res.revision };
      } catch (cause) {
        throw corruptValue(key, cause);
      }
    },

    async list(lo = {}) {
      await readyPromise;
      const rv = lo.revision ?? { kind: 'MostRecent' };
      if (rv.kind === 'Exact') {
        const st = await exactState(rv.revision, lo.storeFallback ?? false);
        if (st !== 'store') return pageOfState(st, rv.revision, lo);
        return listFromStore(rv.revision, lo);
      }
      const where = await resolveRead(rv);
      if (where.from === 'cache') {
        state.checkCorrupt(undefined, lo.keyPrefix ?? '');
        return pageOfState(state, sync.revision, lo);
      }
      return listFromStore(where.at, lo);
    },

    async watch(wo) {
      await readyPromise;
      const start = wo.start;
      const filter = {
        predicate: wo.predicate,
        keyPrefix: wo.keyPrefix,
        allowBookmarks: wo.allowBookmarks ?? false,
      };
      if (start.kind === 'Exact') {
        const x = start.revision;
        if (x > sync.revision) await ensureExists(x);
        const compacted = o.honorStoreCompaction ? await store.compactedRevision() : 0;
        cache.evict();
        if (x < window.oldest || x < compacted) throw tooOld(x, Math.max(window.oldest, compacted));
        const w = watchers.add({ position: Math.max(x, 0), holding: false, ...filter });
        // Replay the window after x (synchronously, so no live change can interleave).
        window.forEachAfter(x, (c: CachedChange<T>) => w.replay(c));
        if (x > w.position) w.position = x;
        return w;
      }
      const wantInitial = wo.initialEvents ?? true;
      const where = await resolveRead(start);
      if (where.from === 'cache') {
        const w = watchers.add({ position: sync.revision, holding: true, ...filter });
        w.release(
          wantInitial ? initialEvents(state.entries.entries(), sync.revision, wo, bookmarkObject) : [],
        );
        return w;
      }
      // The cache lags the store: register first (holding live changes after `at`), then read the store.
      const at = where.at;
      const w = watchers.add({ position: at, holding: true, ...filter });
      if (!wantInitial) {
        w.release([]);
        return w;
      }
      try {
        const res = await listFromStore(at, wo.keyPrefix ? { keyPrefix: wo.keyPrefix } : {});
        const entries = res.items.map((object): [string, T] => ['', object]);
        w.release(initialEvents(entries, at, wo, bookmarkObject));
        return w;
      } catch (e) {
        w.end(undefined);
        throw e;
      }
    },

    sendBookmarks() {
      // Every change up to the bookmark's version must precede it.
      watchers.flush();
      for (const w of watchers) sendBookmark(w, sync.revision, bookmarkObject);
    },

    sendBookmark(watcher) {
      watchers.flush();
      if (watchers.has(watcher)) sendBookmark(watcher, sync.revision, bookmarkObject);
    },

    evict() {
      window.evict(o.now());
    },

    restart() {
      const relisted = reinitialize(resetReason(undefined));
      relisted.catch((e: unknown) => reflector.recoverFromFailedList(e));
      return relisted;
    },

    stats() {
      return {
        objects: state.size,
        windowEvents: window.size,
        watchers: watchers.size,
        revision: sync.revision,
        oldestRevision: window.oldest,
        storeErrors: reflector.errors,
      };
    },

    async stop() {
      reflector.stop();
      bookmarkTimer.stop();
      watchers.endAll(new WatchCacheError('Stopped', 'the watch cache was stopped'));
      sync.cancelAll();
    },
  };

  readyPromise = reflector.load();
  // A store that fails the first list (down at start) does not leave the cache dead: retry until it answers.
  readyPromise.catch((e: unknown) => reflector.recoverFromFailedList(e));
  return cache;
}

function tooOld(requested: number, from: number): WatchCacheError {
  return new WatchCacheError('TooOldResourceVersion', `too old resource version: ${requested} (${from})`, {
    requested,
    revision: from,
  });
}

/** The `Reset` that ends every watcher when the cache re-lists; `error` is the store failure behind it, if any. */
function resetReason(error: unknown): WatchCacheError {
  if (error === undefined) {
    return new WatchCacheError('Reset', 'the watch cache was re-initialized; relist and watch again');
  }
  const why = error instanceof Error ? error.message : String(error);
  return new WatchCacheError(
    'Reset',
    `the watch cache lost its watch on the store (${why}); relist and watch again`,
    { cause: error },
  );
}
