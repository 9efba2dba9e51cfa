import type { ApiObject } from '@orchard/meta';
import type { WatchCacheError } from './errors.js';
import { type CachedChange, type FanOutState, type WatchCacheEvent, WatcherQueue } from './watcher.js';

/** What a new watcher filters and how much it may lag (see `WatcherQueue`). */
export interface NewWatcher<T extends ApiObject> {
  position: number;
  predicate: ((obj: T) => boolean) | undefined;
  keyPrefix: string | undefined;
  allowBookmarks: boolean;
  /** Hold live changes aside until `release` (while the initial state is gathered). */
  holding: boolean;
}

/**
 * The cache's watchers and the fan-out of changes to them. Changes applied to the state are queued
 * and fanned out once per macrotask turn, so a burst of changes costs each watcher one wake-up; the
 * watchers' positions make the deferral invisible to readers. Offering never waits for a watcher.
 *
 * Watchers of a key prefix ending in `/` (a namespace) are indexed by it, as upstream's watcher
 * buckets are: a change is offered to the watchers of the prefixes of its key and to the others, so
 * a change in one namespace costs nothing for the thousands of watchers of other namespaces.
 */
export class WatcherSet<T extends ApiObject> implements FanOutState {
  running = false;
  private readonly watchers = new Set<WatcherQueue<T>>();
  /** Watchers without an indexable prefix: offered every change. */
  private readonly unindexed = new Set<WatcherQueue<T>>();
  /** `unindexed` as an array, rebuilt after it changes: a fan-out walks it without an iterator. */
  private unindexedList: WatcherQueue<T>[] | undefined;
  private readonly byPrefix = new Map<string, Set<WatcherQueue<T>>>();
  private pending: CachedChange<T>[] = [];
  private flushScheduled = false;

  constructor(private readonly bufferSize: number) {}

  get size(): number {
    return this.watchers.size;
  }

  has(w: unknown): w is WatcherQueue<T> {
    return w instanceof WatcherQueue && this.watchers.has(w);
  }

  [Symbol.iterator](): IterableIterator<WatcherQueue<T>> {
    return this.watchers.values();
  }

  /** Registers a watcher; it leaves the set when it closes. */
  add(o: NewWatcher<T>): WatcherQueue<T> {
    const w = new WatcherQueue<T>({
      ...o,
      limit: this.bufferSize,
      onClose: (x) => this.remove(x),
      fanOut: this,
    });
    this.watchers.add(w);
    const p = o.keyPrefix;
    if (p?.endsWith('/')) {
      let set = this.byPrefix.get(p);
      if (!set) {
        set = new Set();
        this.byPrefix.set(p, set);
      }
      set.add(w);
    } else {
      this.unindexed.add(w);
      this.unindexedList = undefined;
    }
    return w;
  }

  private remove(w: WatcherQueue<T>): void {
    this.watchers.delete(w);
    if (this.unindexed.delete(w)) this.unindexedList = undefined;
    const p = w.keyPrefix;
    const set = p === undefined ? undefined : this.byPrefix.get(p);
    if (set?.delete(w) && set.size === 0) this.byPrefix.delete(p as string);
  }

  /** Queues a change for the next fan-out. */
  enqueue(change: CachedChange<T>): void {
    this.pending.push(change);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(this.flush);
  }

  /**
   * Fans the queued changes out now (a bookmark or an ending must follow every change before it).
   * Iterating/batch consumers are woken once (a microtask later); push-mode listeners are called
   * synchronously right after their offers.
   */
  readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    // One event object shared by every watcher without a filter.
    const plain = batch.map(
      (c): WatchCacheEvent<T> => ({ type: c.type, object: c.object, revision: c.revision }),
    );
    this.running = true;
    try {
      // A snapshot: a watcher closed by its listener meanwhile is skipped by its own `closed` check.
      let unindexed = this.unindexedList;
      if (!unindexed) {
        unindexed = [...this.unindexed];
        this.unindexedList = unindexed;
      }
      for (let i = 0; i < unindexed.length; i++) (unindexed[i] as WatcherQueue<T>).receive(batch, plain);
      if (this.byPrefix.size > 0) this.offerIndexed(batch, plain);
    } finally {
      this.running = false;
    }
  };

  /**
   * Offers each change to the watchers of every `/`-ended prefix of its key, then drains them. A
   * one-change turn (paced writes) hands the shared array over as for unindexed watchers.
   */
  private offerIndexed(batch: CachedChange<T>[], plain: WatchCacheEvent<T>[]): void {
    if (batch.length === 1) {
      const key = (batch[0] as CachedChange<T>).key;
      for (let j = key.indexOf('/'); j >= 0; j = key.indexOf('/', j + 1)) {
        const set = this.byPrefix.get(key.slice(0, j + 1));
        if (set) for (const w of set) w.receive(batch, plain, true);
      }
      return;
    }
    const touched = new Set<WatcherQueue<T>>();
    for (let i = 0; i < batch.length; i++) {
      const c = batch[i] as CachedChange<T>;
      const key = c.key;
      for (let j = key.indexOf('/'); j >= 0; j = key.indexOf('/', j + 1)) {
        const set = this.byPrefix.get(key.slice(0, j + 1));
        if (!set) continue;
        for (const w of set) {
          w.offer(c, plain[i], true);
          touched.add(w);
        }
      }
    }
    for (const w of touched) w.drainListener();
  }

  /**
   * Ends every watcher with `reason`. With `event`, an ERROR event carrying it at `revision` is queued
   * first, after every pending change; queued events are still delivered.
   */
  endAll(reason: WatchCacheError, event?: { revision: number }): void {
    if (event) this.flush();
    for (const w of [...this.watchers]) {
      if (event) w.push({ type: 'ERROR', error: reason, revision: event.revision });
      w.end(reason, true);
    }
  }
}
