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
 */
export class WatcherSet<T extends ApiObject> implements FanOutState {
  running = false;
  private readonly watchers = new Set<WatcherQueue<T>>();
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
      onClose: (x) => this.watchers.delete(x),
      fanOut: this,
    });
    this.watchers.add(w);
    return w;
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
      for (const w of this.watchers) {
        for (let i = 0; i < batch.length; i++) w.offer(batch[i] as CachedChange<T>, plain[i]);
        w.drainListener();
      }
    } finally {
      this.running = false;
    }
  };

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
