import type { ApiObject } from '@orchard/meta';
import type { EventWindow } from './event-window.js';
import { KeyIndex } from './key-index.js';
import type { StateView } from './object-state.js';

/**
 * The state at a past revision, rebuilt by undoing the window's later changes on a copy of the
 * current state. The last rebuild is kept: the pages of one paged list (all `Exact` at the same
 * revision) share it.
 */
export class PastState<T extends ApiObject> {
  private rebuilt: (StateView<T> & { rev: number }) | undefined;

  /**
   * The state at `rev`, which must lie in `[window.oldest, synced]`; the current state itself when
   * `rev >= synced`.
   */
  at(rev: number, synced: number, current: StateView<T>, window: EventWindow<T>): StateView<T> {
    if (rev >= synced) return current;
    if (this.rebuilt?.rev === rev) return this.rebuilt;
    const entries = new Map(current.entries);
    window.forEachAfterNewestFirst(rev, (c) => {
      if (c.type === 'ADDED') entries.delete(c.key);
      else {
        entries.set(c.key, c.prevObject as T);
      }
    });
    this.rebuilt = { rev, entries, keys: KeyIndex.fromSorted([...entries.keys()].sort()) };
    return this.rebuilt;
  }

  /** Forgets the kept rebuild (the state was re-listed). */
  clear(): void {
    this.rebuilt = undefined;
  }
}
