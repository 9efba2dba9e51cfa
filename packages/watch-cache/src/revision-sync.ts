import type { Store } from '@orchard/store';
import { WatchCacheError } from './errors.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The revision the cache has caught up with, and the reads waiting for it to reach one. Every wait is
 * a timer (never a clock reading), so fake timers drive it in tests.
 */
export class RevisionSync {
  private synced = 0;
  private readonly waiters = new Set<{ rev: number; resolve: (ok: boolean) => void }>();

  get revision(): number {
    return this.synced;
  }

  /** Sets the revision (a fresh list may move it anywhere) and wakes the waits it satisfies. */
  set(revision: number): void {
    this.synced = revision;
    this.notify();
  }

  /** Raises the revision to `revision` if it is higher, and wakes the waits it satisfies. */
  advance(revision: number): void {
    if (revision > this.synced) this.synced = revision;
    this.notify();
  }

  private notify(): void {
    if (this.waiters.size === 0) return;
    for (const w of this.waiters) {
      if (this.synced >= w.rev) {
        this.waiters.delete(w);
        w.resolve(true);
      }
    }
  }

  /** Waits until the cache has caught up with `rev`; false after `ms`. */
  wait(rev: number, ms: number): Promise<boolean> {
    if (this.synced >= rev) return Promise.resolve(true);
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
        this.waiters.delete(w);
        resolve(false);
      }, ms);
      this.waiters.add(w);
    });
  }

  /** Ends every wait with false (the cache stopped). */
  cancelAll(): void {
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
  }

  /**
   * Waits until the store has reached `rev` (or the cache has), polling every `pollIntervalMs`;
   * rejects with `TooLargeResourceVersion` once `waitMs` has passed without it.
   */
  async ensureStoreReached(store: Store, rev: number, waitMs: number, pollIntervalMs: number): Promise<void> {
    if (this.synced >= rev) return;
    let expired = waitMs <= 0;
    const deadline = expired ? undefined : setTimeout(() => (expired = true), waitMs);
    try {
      for (;;) {
        const current = await store.currentRevision();
        if (current >= rev) return;
        if (expired) {
          throw new WatchCacheError(
            'TooLargeResourceVersion',
            `Too large resource version: ${rev}, current: ${current}`,
            { requested: rev, revision: current },
          );
        }
        await Promise.race([this.wait(rev, pollIntervalMs), sleep(pollIntervalMs)]);
        if (this.synced >= rev) return;
      }
    } finally {
      if (deadline !== undefined) clearTimeout(deadline);
    }
  }
}
