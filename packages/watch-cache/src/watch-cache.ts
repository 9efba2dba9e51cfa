import { type ApiObject, initialEventsEndAnnotation } from '@orchard/meta';
import type { KeyValue, Store, StoreEvent } from '@orchard/store';
import { WatchCacheError } from './errors.js';
import { KeyIndex } from './key-index.js';
import {
  type CachedChange,
  type CacheWatcher,
  fanOut,
  type WatchCacheEvent,
  WatcherQueue,
} from './watcher.js';

/**
 * Which data a read wants (spec doc 1 §4.5 "Meanings"), with revisions already parsed:
 * - `MostRecent`: consistent: the cache first catches up with the store's current revision.
 * - `Any`: whatever the cache holds now.
 * - `NotOlderThan`: at least this revision (waits for it, then `TooLargeResourceVersion`).
 * - `Exact`: exactly this revision, rebuilt from the window (`TooOldResourceVersion` below it).
 */
export type ReadRevision =
  | { kind: 'MostRecent' }
  | { kind: 'Any' }
  | { kind: 'NotOlderThan'; revision: number }
  | { kind: 'Exact'; revision: number };

export interface WatchCacheOptions<T extends ApiObject = ApiObject> {
  /** Key prefix of the resource (every key the cache serves starts with it). */
  prefix: string;
  /** Decodes a stored value; must set `metadata.resourceVersion` to `String(kv.modRevision)`. */
  decode: (kv: KeyValue) => T;
  /**
   * The prefix the cache watches to learn the store's progress (default: `prefix`). Set it to the
   * store's root so the cache sees every revision (as etcd progress notifications would): then a
   * consistent read waits only for the cache to catch up instead of falling back to the store.
   */
  progressPrefix?: string;
  window?: {
    /** How long events stay servable (spec doc 1 §8 "Watch history retained": 5 minutes). Default 300 000. */
    ms?: number;
    /** At most this many events are kept, whatever their age. Default 100 000. */
    maxEvents?: number;
  };
  /** Clock for the time window (default `Date.now`). */
  now?: () => number;
  /** How long a read or watch for a revision the store has not reached waits before `TooLargeResourceVersion` (default 3000). */
  tooLargeWaitMs?: number;
  /** How long a consistent read waits for the cache to catch up before reading the store instead (default 250). */
  consistentReadWaitMs?: number;
  /** Events one watcher may have queued (unconsumed) before it is closed with `WatcherTooSlow` (default 1024). */
  watcherBufferSize?: number;
  /** Interval of periodic BOOKMARK events to watchers that allow them; 0 disables the timer (default 60 000). */
  bookmarkIntervalMs?: number;
  /** Domain of the `<domain>/initial-events-end` annotation (the flavor's, default `orch.io`). */
  domain?: string;
  /** Builds a BOOKMARK object (default: `{metadata: {resourceVersion}}` plus the end annotation). */
  bookmarkObject?: (resourceVersion: string, initialEventsEnd: boolean) => T;
  /** Poll interval while waiting for the store to reach a revision (default 20). */
  pollIntervalMs?: number;
  /**
   * Start the window at the store's compacted revision instead of now, replaying the history the store
   * still holds (default false). A cache created after writes then still serves watches from their
   * versions, as if it had been running since the last compaction.
   */
  replayHistory?: boolean;
  /**
   * Treat versions the store has compacted away as gone even while the window still holds them
   * (default true): the history served is what both the window and the store retain, so compacting
   * the store forces 410 for watches and Exact reads below it, as clients of a cache-less server see.
   */
  honorStoreCompaction?: boolean;
}

export const defaultWatchCacheOptions = Object.freeze({
  windowMs: 5 * 60_000,
  maxEvents: 100_000,
  tooLargeWaitMs: 3000,
  consistentReadWaitMs: 250,
  watcherBufferSize: 1024,
  bookmarkIntervalMs: 60_000,
  domain: 'orch.io',
  pollIntervalMs: 20,
});

export interface CacheListOptions<T extends ApiObject = ApiObject> {
  revision?: ReadRevision;
  /** Return keys >= startKey only. */
  startKey?: string;
  /** Only keys starting with this (a namespace within the resource). */
  keyPrefix?: string;
  /** At most this many (matching) items; 0 or unset = all. */
  limit?: number;
  predicate?: (obj: T) => boolean;
  /** For `Exact` below the window: read that revision from the store instead of failing (continue pages do). */
  storeFallback?: boolean;
}

export interface CacheListResult<T extends ApiObject = ApiObject> {
  items: T[];
  /** The revision the list was read at. */
  revision: number;
  /** Keys after the last examined one at that revision (ignoring the predicate). */
  remaining: number;
  /** Where the next page starts, when keys remain. */
  nextKey: string | undefined;
  /** Whether it was served from the cache (false: read from the store). */
  fromCache: boolean;
}

export interface CacheGetResult<T extends ApiObject = ApiObject> {
  object: T | undefined;
  revision: number;
}

export interface CacheWatchOptions<T extends ApiObject = ApiObject> {
  /**
   * Where the watch starts. `Exact`: changes after that revision only. The others: synthetic ADDED
   * events for the state at that read (when `initialEvents`), then changes after it.
   */
  start: ReadRevision;
  /** Send the state as ADDED events first (not with `Exact`). Default true for non-Exact starts. */
  initialEvents?: boolean;
  /** After the initial events, a BOOKMARK annotated `<domain>/initial-events-end: "true"`. */
  initialEventsEndBookmark?: boolean;
  /** Periodic BOOKMARK events. */
  allowBookmarks?: boolean;
  predicate?: (obj: T) => boolean;
  /** Only keys starting with this (a namespace within the resource). */
  keyPrefix?: string;
}

export interface WatchCacheStats {
  objects: number;
  windowEvents: number;
  watchers: number;
  revision: number;
  oldestRevision: number;
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
  /** Re-lists from the store; every watcher ends with an ERROR `Reset` event. */
  restart(): Promise<void>;
  stats(): WatchCacheStats;
  /** Stops watching the store; every watcher ends with `Stopped`. */
  stop(): Promise<void>;
}

interface Entry<T> {
  object: T;
  revision: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createWatchCache<T extends ApiObject = ApiObject>(
  store: Store,
  options: WatchCacheOptions<T>,
): WatchCache<T> {
  const d = defaultWatchCacheOptions;
  const prefix = options.prefix;
  const progressPrefix = options.progressPrefix ?? prefix;
  const windowMs = options.window?.ms ?? d.windowMs;
  const maxEvents = options.window?.maxEvents ?? d.maxEvents;
  const now = options.now ?? Date.now;
  const tooLargeWaitMs = options.tooLargeWaitMs ?? d.tooLargeWaitMs;
  // Without a wider progress watch the cache cannot tell it is current: read the store at once when behind.
  const consistentReadWaitMs =
    progressPrefix !== prefix ? (options.consistentReadWaitMs ?? d.consistentReadWaitMs) : 0;
  const bufferSize = options.watcherBufferSize ?? d.watcherBufferSize;
  const bookmarkIntervalMs = options.bookmarkIntervalMs ?? d.bookmarkIntervalMs;
  const pollIntervalMs = options.pollIntervalMs ?? d.pollIntervalMs;
  const annotation = initialEventsEndAnnotation(options.domain ?? d.domain);
  const bookmarkObject =
    options.bookmarkObject ??
    ((rv: string, end: boolean) =>
      ({
        metadata: end
          ? { resourceVersion: rv, annotations: { [annotation]: 'true' } }
          : { resourceVersion: rv },
      }) as unknown as T);
  const decode = options.decode;

  // State at `synced`.
  let objects = new Map<string, Entry<T>>();
  let sortedKeys = new KeyIndex();
  const corrupt = new Map<string, unknown>();
  let synced = 0;
  let oldest = 0;
  // The window: changes with revision > oldest, in order; `head` is the first live index.
  let window: CachedChange<T>[] = [];
  let head = 0;
  const watchers = new Set<WatcherQueue<T>>();
  // Changes applied to the state but not yet fanned out. Fan-out runs once per macrotask turn, so a
  // burst of changes costs each watcher one wake-up; positions make the deferral invisible to readers.
  let pending: CachedChange<T>[] = [];
  let flushScheduled = false;
  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }
  function flush(): void {
    flushScheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const plain = batch.map(
      (c): WatchCacheEvent<T> => ({ type: c.type, object: c.object, revision: c.revision }),
    );
    fanOut(watchers, batch, plain);
  }
  const syncWaiters = new Set<{ rev: number; resolve: (ok: boolean) => void }>();
  let watchAbort: AbortController | undefined;
  let stopped = false;
  let readyPromise: Promise<void>;
  let generation = 0;

  const timer =
    bookmarkIntervalMs > 0
      ? setInterval(() => {
          cache.evict();
          cache.sendBookmarks();
        }, bookmarkIntervalMs)
      : undefined;
  timer?.unref?.();

  const honorCompaction = options.honorStoreCompaction ?? true;

  /** The oldest revision servable now: the window's, raised to the store's compaction point. */
  async function servableFrom(): Promise<number> {
    if (!honorCompaction) return oldest;
    const compacted = await store.compactedRevision();
    return Math.max(oldest, compacted);
  }

  function tooOld(requested: number, from = oldest): WatchCacheError {
    return new WatchCacheError('TooOldResourceVersion', `too old resource version: ${requested} (${from})`, {
      requested,
      revision: from,
    });
  }

  function notifySynced(): void {
    for (const w of syncWaiters) {
      if (synced >= w.rev) {
        syncWaiters.delete(w);
        w.resolve(true);
      }
    }
  }

  /** Waits until the cache has caught up with `rev`; false after `ms`. */
  function waitSynced(rev: number, ms: number): Promise<boolean> {
    if (synced >= rev) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const w = {
        rev,
        resolve: (ok: boolean) => {
          clearTimeout(t);
          resolve(ok);
        },
      };
      const t = setTimeout(() => {
        syncWaiters.delete(w);
        resolve(false);
      }, ms);
      syncWaiters.add(w);
    });
  }

  /** Waits until the store has reached `rev`; `TooLargeResourceVersion` after `tooLargeWaitMs`. */
  async function ensureExists(rev: number): Promise<void> {
    if (synced >= rev) return;
    const deadline = Date.now() + tooLargeWaitMs;
    for (;;) {
      const current = await store.currentRevision();
      if (current >= rev) return;
      if (Date.now() >= deadline) {
        throw new WatchCacheError(
          'TooLargeResourceVersion',
          `Too large resource version: ${rev}, current: ${current}`,
          { requested: rev, revision: current },
        );
      }
      await Promise.race([waitSynced(rev, pollIntervalMs), sleep(pollIntervalMs)]);
      if (synced >= rev) return;
    }
  }

  /**
   * Resolves where a non-Exact read is served: `cache` (state at `synced`, which satisfies the read)
   * or a store revision to read instead.
   */
  async function resolveRead(rv: ReadRevision): Promise<{ from: 'cache' } | { from: 'store'; at: number }> {
    await readyPromise;
    if (rv.kind === 'Any') return { from: 'cache' };
    let want: number;
    if (rv.kind === 'MostRecent') {
      want = await store.currentRevision();
    } else {
      want = rv.revision;
      if (synced >= want) return { from: 'cache' };
      await ensureExists(want);
    }
    if (await waitSynced(want, consistentReadWaitMs)) return { from: 'cache' };
    return { from: 'store', at: Math.max(want, await store.currentRevision()) };
  }

  function checkCorrupt(key?: string): void {
    if (corrupt.size === 0) return;
    if (key !== undefined && !corrupt.has(key)) return;
    const [k, cause] =
      key !== undefined ? [key, corrupt.get(key)] : (corrupt.entries().next().value as [string, unknown]);
    throw new WatchCacheError('Corrupt', `unable to decode the stored value of ${k}`, { key: k, cause });
  }

  function page(
    entries: Map<string, Entry<T>>,
    keys: KeyIndex,
    revision: number,
    o: CacheListOptions<T>,
  ): CacheListResult<T> {
    const limit = o.limit && o.limit > 0 ? o.limit : Number.POSITIVE_INFINITY;
    const p = o.predicate;
    const kp = o.keyPrefix;
    let i = o.startKey ? keys.lowerBound(o.startKey) : 0;
    let end = keys.length;
    if (kp) {
      i = Math.max(i, keys.lowerBound(kp));
      end = keys.lowerBound(`${kp}\uffff`);
    }
    const items: T[] = [];
    let last: string | undefined;
    const it = keys.from(i);
    for (; i < end && items.length < limit; i++) {
      const k = it.next().value as string;
      const e = entries.get(k) as Entry<T>;
      last = k;
      if (!p || p(e.object)) items.push(e.object);
    }
    const remaining = Math.max(0, end - i);
    return {
      items,
      revision,
      remaining,
      nextKey: remaining > 0 && last !== undefined ? `${last}\x00` : undefined,
      fromCache: true,
    };
  }

  /** The state at `rev` (oldest <= rev <= synced), by undoing the window's later changes. */
  // The last state rebuilt for an Exact read: the pages of one paged list share it.
  let rebuilt: { rev: number; entries: Map<string, Entry<T>>; keys: KeyIndex } | undefined;

  function stateAt(rev: number): { entries: Map<string, Entry<T>>; keys: KeyIndex } {
    if (rev >= synced) return { entries: objects, keys: sortedKeys };
    if (rebuilt?.rev === rev) return rebuilt;
    const entries = new Map(objects);
    for (let i = window.length - 1; i >= head; i--) {
      const c = window[i] as CachedChange<T>;
      if (c.revision <= rev) break;
      if (c.type === 'ADDED') entries.delete(c.key);
      else {
        const prev = c.prevObject as T;
        entries.set(c.key, { object: prev, revision: Number(prev.metadata?.resourceVersion ?? 0) });
      }
    }
    rebuilt = { rev, entries, keys: KeyIndex.fromSorted([...entries.keys()].sort()) };
    return rebuilt;
  }

  async function listFromStore(at: number, o: CacheListOptions<T>): Promise<CacheListResult<T>> {
    const limit = o.limit && o.limit > 0 ? o.limit : 0;
    const p = o.predicate;
    const items: T[] = [];
    let startKey = o.startKey;
    let revision = at;
    for (;;) {
      const batch = limit === 0 ? 0 : p ? Math.max(limit, 500) : limit - items.length;
      const res = await store.list(o.keyPrefix ?? prefix, {
        atRevision: at,
        limit: batch,
        ...(startKey ? { startKey } : {}),
      });
      revision = res.revision;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i] as KeyValue;
        let obj: T;
        try {
          obj = decode(kv);
        } catch (cause) {
          throw new WatchCacheError('Corrupt', `unable to decode the stored value of ${kv.key}`, {
            key: kv.key,
            cause,
          });
        }
        if (!p || p(obj)) items.push(obj);
        if (limit > 0 && items.length >= limit) {
          const remaining = res.kvs.length - i - 1 + res.remaining;
          return {
            items,
            revision,
            remaining,
            nextKey: remaining > 0 ? `${kv.key}\x00` : undefined,
            fromCache: false,
          };
        }
      }
      const lastKv = res.kvs[res.kvs.length - 1];
      if (res.remaining === 0 || !lastKv || limit === 0) {
        return { items, revision, remaining: 0, nextKey: undefined, fromCache: false };
      }
      startKey = `${lastKv.key}\x00`;
    }
  }

  function addKey(key: string): void {
    sortedKeys.add(key);
  }
  function removeKey(key: string): void {
    sortedKeys.delete(key);
  }

  function apply(ev: StoreEvent): void {
    const key = ev.kv.key;
    if (key.startsWith(prefix)) {
      const prev = objects.get(key);
      let obj: T | undefined;
      try {
        obj = decode(ev.kv);
      } catch (cause) {
        if (ev.type === 'put') corrupt.set(key, cause);
        else corrupt.delete(key);
        if (prev) {
          objects.delete(key);
          removeKey(key);
        }
      }
      if (obj !== undefined) {
        if (ev.type === 'delete') corrupt.delete(key);
        let change: CachedChange<T> | undefined;
        if (ev.type === 'put') {
          corrupt.delete(key);
          objects.set(key, { object: obj, revision: ev.revision });
          if (!prev) addKey(key);
          change = {
            type: prev ? 'MODIFIED' : 'ADDED',
            key,
            object: obj,
            prevObject: prev?.object,
            revision: ev.revision,
            time: now(),
          };
        } else if (prev) {
          objects.delete(key);
          removeKey(key);
          change = {
            type: 'DELETED',
            key,
            object: obj,
            prevObject: prev.object,
            revision: ev.revision,
            time: now(),
          };
        }
        if (change) {
          window.push(change);
          synced = ev.revision;
          pending.push(change);
          scheduleFlush();
          cache.evict();
        }
      }
    }
    if (ev.revision > synced) synced = ev.revision;
    notifySynced();
  }

  async function initialList(): Promise<Awaited<ReturnType<Store['list']>>> {
    if (options.replayHistory) {
      try {
        const at = await store.compactedRevision();
        // Revision 0 means "current" to a store (as to etcd); the state before any write is empty.
        if (at === 0) return { kvs: [], revision: 0, remaining: 0 };
        return await store.list(prefix, { atRevision: at });
      } catch {
        // Compacted meanwhile: start now.
      }
    }
    return store.list(prefix, {});
  }

  async function load(): Promise<void> {
    const gen = ++generation;
    let res = await initialList();
    const all = [...res.kvs];
    while (res.remaining > 0 && res.kvs.length > 0) {
      const last = res.kvs[res.kvs.length - 1] as KeyValue;
      res = await store.list(prefix, { atRevision: res.revision, startKey: `${last.key}\x00` });
      all.push(...res.kvs);
    }
    const next = new Map<string, Entry<T>>();
    corrupt.clear();
    for (const kv of all) {
      try {
        next.set(kv.key, { object: decode(kv), revision: kv.modRevision });
      } catch (cause) {
        corrupt.set(kv.key, cause);
      }
    }
    objects = next;
    rebuilt = undefined;
    sortedKeys = KeyIndex.fromSorted([...next.keys()].sort());
    window = [];
    head = 0;
    synced = res.revision;
    oldest = res.revision;
    const abort = new AbortController();
    watchAbort = abort;
    void run(gen, res.revision, abort.signal);
    notifySynced();
  }

  async function run(gen: number, from: number, signal: AbortSignal): Promise<void> {
    try {
      for await (const ev of store.watch(progressPrefix, { fromRevision: from, signal })) {
        if (gen !== generation) return;
        apply(ev);
      }
      if (signal.aborted || stopped || gen !== generation) return;
    } catch (e) {
      if (signal.aborted || stopped || gen !== generation) return;
      void e;
    }
    // The store watch ended on its own (e.g. compacted under us): re-list, as upstream's reflector does.
    await sleep(pollIntervalMs);
    if (!stopped && gen === generation) await cache.restart().catch(() => undefined);
  }

  function endAll(reason: WatchCacheError): void {
    flush();
    for (const w of [...watchers]) {
      w.push({ type: 'ERROR', error: reason, revision: synced });
      w.end(reason, true);
    }
  }

  function newWatcher(position: number, o: CacheWatchOptions<T>, holding: boolean): WatcherQueue<T> {
    const w = new WatcherQueue<T>({
      position,
      predicate: o.predicate,
      keyPrefix: o.keyPrefix,
      allowBookmarks: o.allowBookmarks ?? false,
      limit: bufferSize,
      holding,
      onClose: (x) => watchers.delete(x),
    });
    watchers.add(w);
    return w;
  }

  function initialEvents(
    entries: Iterable<[string, Entry<T>]>,
    rev: number,
    o: CacheWatchOptions<T>,
  ): WatchCacheEvent<T>[] {
    const out: WatchCacheEvent<T>[] = [];
    const p = o.predicate;
    const kp = o.keyPrefix;
    for (const [k, e] of entries) {
      if (kp && !k.startsWith(kp)) continue;
      if (!p || p(e.object)) out.push({ type: 'ADDED', object: e.object, revision: e.revision });
    }
    if (o.initialEventsEndBookmark) {
      out.push({ type: 'BOOKMARK', object: bookmarkObject(String(rev), true), revision: rev });
    }
    return out;
  }

  const cache: WatchCache<T> = {
    ready: () => readyPromise,
    get revision() {
      return synced;
    },
    get oldestRevision() {
      return oldest;
    },

    async get(key, revision = { kind: 'MostRecent' }) {
      await readyPromise;
      if (revision.kind === 'Exact') {
        const { entries } = await exactState(revision.revision, false);
        if (entries instanceof Map) {
          return { object: entries.get(key)?.object, revision: revision.revision };
        }
      }
      const where =
        revision.kind === 'Exact'
          ? { from: 'store' as const, at: revision.revision }
          : await resolveRead(revision);
      if (where.from === 'cache') {
        checkCorrupt(key);
        return { object: objects.get(key)?.object, revision: synced };
      }
      const res = await store.get(key, { atRevision: where.at });
      if (!res.kv) return { object: undefined, revision: res.revision };
      try {
        return { object: decode(res.kv), revision: res.revision };
      } catch (cause) {
        throw new WatchCacheError('Corrupt', `unable to decode the stored value of ${key}`, { key, cause });
      }
    },

    async list(o = {}) {
      await readyPromise;
      const rv = o.revision ?? { kind: 'MostRecent' };
      if (rv.kind === 'Exact') {
        const st = await exactState(rv.revision, o.storeFallback ?? false);
        if ('keys' in st) return page(st.entries, st.keys, rv.revision, o);
        return listFromStore(rv.revision, o);
      }
      const where = await resolveRead(rv);
      if (where.from === 'cache') {
        checkCorrupt();
        return page(objects, sortedKeys, synced, o);
      }
      return listFromStore(where.at, o);
    },

    async watch(o) {
      await readyPromise;
      const start = o.start;
      if (start.kind === 'Exact') {
        const x = start.revision;
        if (x > synced) await ensureExists(x);
        const compacted = honorCompaction ? await store.compactedRevision() : 0;
        cache.evict();
        if (x < oldest || x < compacted) throw tooOld(x, Math.max(oldest, compacted));
        const w = newWatcher(Math.max(x, 0), o, false);
        // Replay the window after x (synchronously, so no live change can interleave).
        const from = firstAfter(x);
        for (let i = from; i < window.length; i++) w.replay(window[i] as CachedChange<T>);
        if (x > w.position) w.position = x;
        return w;
      }
      const wantInitial = o.initialEvents ?? true;
      const where = await resolveRead(start);
      if (where.from === 'cache') {
        const w = newWatcher(synced, o, true);
        w.release(wantInitial ? initialEvents(objects.entries(), synced, o) : []);
        return w;
      }
      // The cache lags the store: register first (holding live changes after `at`), then read the store.
      const at = where.at;
      const w = newWatcher(at, o, true);
      if (!wantInitial) {
        w.release([]);
        return w;
      }
      try {
        const res = await listFromStore(at, o.keyPrefix ? { keyPrefix: o.keyPrefix } : {});
        const entries = res.items.map((object): [string, Entry<T>] => [
          '',
          { object, revision: Number(object.metadata?.resourceVersion ?? 0) },
        ]);
        w.release(initialEvents(entries, at, o));
        return w;
      } catch (e) {
        w.end(undefined);
        throw e;
      }
    },

    sendBookmarks() {
      // Every change up to the bookmark's version must precede it.
      flush();
      for (const w of watchers) bookmark(w);
    },

    sendBookmark(watcher) {
      flush();
      if (watcher instanceof WatcherQueue && watchers.has(watcher)) bookmark(watcher);
    },

    evict() {
      const cutoff = now() - windowMs;
      let h = head;
      while (h < window.length) {
        const c = window[h] as CachedChange<T>;
        if (window.length - h > maxEvents || c.time < cutoff) {
          oldest = c.revision;
          h++;
        } else break;
      }
      if (h !== head) {
        head = h;
        if (head > 4096 && head * 2 > window.length) {
          window = window.slice(head);
          head = 0;
        }
      }
    },

    async restart() {
      watchAbort?.abort();
      endAll(new WatchCacheError('Reset', 'the watch cache was re-initialized; relist and watch again'));
      readyPromise = load();
      await readyPromise;
    },

    stats() {
      return {
        objects: objects.size,
        windowEvents: window.length - head,
        watchers: watchers.size,
        revision: synced,
        oldestRevision: oldest,
      };
    },

    async stop() {
      stopped = true;
      generation++;
      if (timer) clearInterval(timer);
      watchAbort?.abort();
      for (const w of [...watchers])
        w.end(new WatchCacheError('Stopped', 'the watch cache was stopped'), true);
      for (const w of syncWaiters) w.resolve(false);
      syncWaiters.clear();
    },
  };

  function bookmark(w: WatcherQueue<T>): void {
    if (!w.allowBookmarks || w.isHolding || w.isClosed) return;
    const rev = Math.max(w.position, synced);
    w.position = rev;
    w.push({ type: 'BOOKMARK', object: bookmarkObject(String(rev), false), revision: rev });
  }

  /** Index of the first window change with revision > rev. */
  function firstAfter(rev: number): number {
    let lo = head;
    let hi = window.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((window[mid] as CachedChange<T>).revision <= rev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The state at exactly `rev`, from the window; or `store` when only the store can serve it. */
  async function exactState(
    rev: number,
    storeFallback: boolean,
  ): Promise<{ entries: Map<string, Entry<T>>; keys: KeyIndex } | { entries: 'store' }> {
    if (rev > synced) {
      await ensureExists(rev);
      if (!(await waitSynced(rev, consistentReadWaitMs))) return { entries: 'store' };
    }
    const from = await servableFrom();
    cache.evict();
    if (rev < oldest || rev < from) {
      if (storeFallback) return { entries: 'store' };
      throw tooOld(rev, Math.max(oldest, from));
    }
    checkCorrupt();
    return stateAt(rev);
  }

  readyPromise = load();
  readyPromise.catch(() => undefined);
  return cache;
}
