import type { ApiObject } from '@orchard/meta';
import type { KeyValue, StoreEvent } from '@orchard/store';
import { WatchCacheError } from './errors.js';
import { KeyIndex } from './key-index.js';
import type { CachedChange } from './watcher.js';

/**
 * The revision a cached object was last modified at: its `metadata.resourceVersion`, which the
 * cache's `decode` sets to the key's `modRevision`. The state holds the objects themselves, not a
 * wrapper with the revision beside each (issue 18's memory target: 40 B per object).
 */
export function revisionOf(object: ApiObject): number {
  return Number(object.metadata?.resourceVersion ?? 0);
}

/** A set of objects by key with its sorted key index: the current state, or one rebuilt for a past revision. */
export interface StateView<T> {
  entries: Map<string, T>;
  keys: KeyIndex;
}

/**
 * The current decoded objects of one resource, with the sorted key index that paged lists walk and
 * the keys whose stored value failed to decode (kept so reads report them as `Corrupt` instead of
 * silently missing an object).
 */
export class ObjectState<T extends ApiObject> implements StateView<T> {
  entries = new Map<string, T>();
  keys = new KeyIndex();
  private readonly corrupt = new Map<string, unknown>();

  constructor(
    private readonly prefix: string,
    private readonly decode: (kv: KeyValue) => T,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** Replaces the whole state with a fresh list's values. */
  load(kvs: readonly KeyValue[]): void {
    const next = new Map<string, T>();
    this.corrupt.clear();
    for (const kv of kvs) {
      try {
        next.set(kv.key, this.decode(kv));
      } catch (cause) {
        this.corrupt.set(kv.key, cause);
      }
    }
    this.entries = next;
    this.keys = KeyIndex.fromSorted([...next.keys()].sort());
  }

  /**
   * Applies a store event under the prefix; returns the change it makes (undefined when it makes none:
   * a delete of an unknown key, or a value that does not decode, which is remembered as corrupt).
   * `time` is stamped on the change for the window's time limit.
   */
  apply(ev: StoreEvent, time: number): CachedChange<T> | undefined {
    const key = ev.kv.key;
    const prev = this.entries.get(key);
    let obj: T;
    try {
      obj = this.decode(ev.kv);
    } catch (cause) {
      if (ev.type === 'put') this.corrupt.set(key, cause);
      else this.corrupt.delete(key);
      if (prev) {
        this.entries.delete(key);
        this.keys.delete(key);
      }
      return undefined;
    }
    this.corrupt.delete(key);
    if (ev.type === 'put') {
      this.entries.set(key, obj);
      if (!prev) this.keys.add(key);
      return {
        type: prev ? 'MODIFIED' : 'ADDED',
        key,
        object: obj,
        prevObject: prev,
        revision: ev.revision,
        time,
      };
    }
    if (!prev) return undefined;
    this.entries.delete(key);
    this.keys.delete(key);
    return { type: 'DELETED', key, object: obj, prevObject: prev, revision: ev.revision, time };
  }

  /** Whether `key` belongs to this resource. */
  owns(key: string): boolean {
    return key.startsWith(this.prefix);
  }

  /**
   * Throws `Corrupt` when `key` holds a value that did not decode; without a key, when any key under
   * `prefix` (default: all) does, listing them all (at most `maxCorruptKeysReported`, in key order).
   */
  checkCorrupt(key?: string, prefix = ''): void {
    if (this.corrupt.size === 0) return;
    if (key !== undefined) {
      if (this.corrupt.has(key)) throw corruptValue(key, this.corrupt.get(key));
      return;
    }
    const found = [...this.corrupt.keys()].filter((k) => k.startsWith(prefix)).sort();
    if (found.length === 0) return;
    const first = found[0] as string;
    throw corruptValue(
      first,
      this.corrupt.get(first),
      found.slice(0, maxCorruptKeysReported).map((k) => ({ key: k, cause: this.corrupt.get(k) })),
    );
  }
}

/** At most this many unreadable keys are named by one failed list (upstream's aggregator bound). */
export const maxCorruptKeysReported = 100;

/** The `Corrupt` error for a stored value of `key` that failed to decode. */
export function corruptValue(
  key: string,
  cause: unknown,
  corrupt?: readonly { key: string; cause: unknown }[],
): WatchCacheError {
  return new WatchCacheError('Corrupt', `unable to decode the stored value of ${key}`, {
    key,
    cause,
    ...(corrupt ? { corrupt } : {}),
  });
}
