import type { ApiObject } from '@orchard/meta';
import type { KeyValue, Store } from '@orchard/store';
import { corruptValue, type StateView } from './object-state.js';
import type { CacheListOptions, CacheListResult } from './read-options.js';

/** One page of a cached state (current or past) read at `revision`, walking its sorted keys. */
export function pageOfState<T extends ApiObject>(
  state: StateView<T>,
  revision: number,
  o: CacheListOptions<T>,
): CacheListResult<T> {
  const { entries, keys } = state;
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
  keys.walk(i, (k) => {
    if (i >= end || items.length >= limit) return false;
    const object = entries.get(k) as T;
    last = k;
    if (!p || p(object)) items.push(object);
    i++;
    return true;
  });
  const remaining = Math.max(0, end - i);
  return {
    items,
    revision,
    remaining,
    nextKey: remaining > 0 && last !== undefined ? `${last}\x00` : undefined,
    fromCache: true,
  };
}

/**
 * One page read from the store at revision `at` and decoded (the cache cannot serve that revision).
 * With a predicate, reads in batches of at least 500 until `limit` items match.
 */
export async function pageFromStore<T extends ApiObject>(
  store: Store,
  prefix: string,
  decode: (kv: KeyValue) => T,
  at: number,
  o: CacheListOptions<T>,
): Promise<CacheListResult<T>> {
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
        throw corruptValue(kv.key, cause);
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
