import { createMemoryStore, type Store, type StoreEvent } from '@orchard/store';
import { afterEach, describe, expect, it } from 'vitest';
import { isWatchCacheError, type WatchCacheError } from './errors.js';
import { decode, encodeJson } from './test-fixture.js';
import { createWatchCache, type WatchCache } from './watch-cache.js';
import type { CacheWatcher, WatchCacheEvent } from './watcher.js';

const P = '/registry/widgets/';

const value = (name: string) => encodeJson({ kind: 'Widget', metadata: { name } });

/**
 * A memory store whose watches can be broken on demand (`breakWatches`) and whose lists can be made to
 * fail (`failLists`), as a store whose connection drops would.
 */
function flakyStore() {
  const inner = createMemoryStore();
  const breakers = new Set<(e: Error) => void>();
  let listFailure: Error | undefined;
  let watchesOpened = 0;
  const store: Store = {
    currentRevision: () => inner.currentRevision(),
    compactedRevision: () => inner.compactedRevision(),
    get: (k, o) => inner.get(k, o),
    list: (p, o) => (listFailure ? Promise.reject(listFailure) : inner.list(p, o)),
    create: (k, v) => inner.create(k, v),
    update: (k, f, o) => inner.update(k, f, o),
    delete: (k, o) => inner.delete(k, o),
    compact: (r) => inner.compact(r),
    close: () => inner.close(),
    async *watch(prefix, options): AsyncGenerator<StoreEvent> {
      watchesOpened++;
      const it = inner.watch(prefix, options)[Symbol.asyncIterator]();
      let rejectBroken: (e: Error) => void = () => undefined;
      const broken = new Promise<never>((_, reject) => {
        rejectBroken = reject;
      });
      broken.catch(() => undefined);
      breakers.add(rejectBroken);
      try {
        for (;;) {
          const r = await Promise.race([it.next(), broken]);
          if (r.done) return;
          yield r.value;
        }
      } finally {
        breakers.delete(rejectBroken);
        await it.return?.();
      }
    },
  };
  return {
    store,
    inner,
    get watchesOpened() {
      return watchesOpened;
    },
    breakWatches(e: Error) {
      for (const b of [...breakers]) b(e);
    },
    failLists(e: Error | undefined) {
      listFailure = e;
    },
  };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

async function drain(w: CacheWatcher): Promise<WatchCacheEvent[]> {
  const out: WatchCacheEvent[] = [];
  for await (const ev of w) out.push(ev);
  return out;
}

let cache: WatchCache;

/**
 * A cache over a flaky store that records (or hands to `onStoreError`) what it reports, not yet
 * waited for; `prepare` runs on the store before the cache lists it.
 */
function open(onStoreError?: (e: unknown) => void, prepare?: (f: ReturnType<typeof flakyStore>) => void) {
  const f = flakyStore();
  prepare?.(f);
  const reported: unknown[] = [];
  cache = createWatchCache(f.store, {
    prefix: P,
    decode,
    bookmarkIntervalMs: 0,
    pollIntervalMs: 1,
    onStoreError: onStoreError ?? ((e) => reported.push(e)),
  });
  return { f, reported, cache };
}

/** `open()` and wait until the cache has listed the store. */
async function start(onStoreError?: (e: unknown) => void) {
  const opened = open(onStoreError);
  await cache.ready();
  return opened;
}
afterEach(async () => {
  await cache?.stop();
});

describe('createWatchCache: a failing store watch is surfaced, not swallowed', () => {
  it('ends every watcher with a Reset carrying the store error, reports it, and recovers by re-listing', async () => {
    const { f, reported } = await start();
    await f.store.create(`${P}a`, value('a'));
    const w = await cache.watch({ start: { kind: 'MostRecent' } });
    const events = drain(w);
    await until(() => cache.revision === 1, 'the cache to see the first write');

    const cause = new Error('connection to the store lost');
    f.breakWatches(cause);
    const evs = await events;
    const last = evs[evs.length - 1];
    expect(last?.type).toBe('ERROR');
    const err = (last as { error: WatchCacheError }).error;
    expect(isWatchCacheError(err, 'Reset')).toBe(true);
    expect(err.cause).toBe(cause);
    expect(err.message).toContain('connection to the store lost');
    expect(w.closeReason?.code).toBe('Reset');
    expect(reported).toEqual([cause]);
    expect(cache.stats().storeErrors).toBe(1);

    // Re-listed and following the store again: a later write reaches a new watcher.
    await until(() => f.watchesOpened === 2, 'the cache to watch the store again');
    await cache.ready();
    const w2 = await cache.watch({ start: { kind: 'Any' }, initialEvents: false });
    await f.store.create(`${P}b`, value('b'));
    const next = await w2.nextBatch();
    expect(next?.map((e) => e.type)).toEqual(['ADDED']);
    w2.close();
    const listed = await cache.list({ revision: { kind: 'MostRecent' } });
    expect(listed.items.map((o) => o.metadata?.name)).toEqual(['a', 'b']);
  });

  it('retries a failing re-list, reporting each failure, until the store answers again', async () => {
    const { f, reported } = await start();
    const down = new Error('store unavailable');
    f.failLists(down);
    f.breakWatches(new Error('watch broken'));
    await until(() => reported.length >= 3, 'two failed re-lists');
    expect(reported.slice(1).every((e) => e === down)).toBe(true);
    // While the store is down, reads reject with the store's error rather than serving stale data.
    await expect(cache.list({ revision: { kind: 'Any' } })).rejects.toBe(down);

    f.failLists(undefined);
    await f.inner.create(`${P}c`, value('c'));
    await until(() => f.watchesOpened >= 2, 'the cache to re-list and watch again');
    await cache.ready();
    const listed = await cache.list({ revision: { kind: 'Any' } });
    expect(listed.items.map((o) => o.metadata?.name)).toEqual(['c']);
    expect(cache.stats().storeErrors).toBe(reported.length);
  });

  it('a reporter that throws does not stop the recovery', async () => {
    const { f } = await start(() => {
      throw new Error('reporter broke');
    });
    f.breakWatches(new Error('watch broken'));
    await until(() => f.watchesOpened === 2, 'the cache to watch the store again');
    await cache.ready();
    await f.store.create(`${P}d`, value('d'));
    await until(() => cache.revision === 1, 'the cache to see the write');
  });

  it('restart() without a store failure ends watchers with a plain Reset and reports nothing', async () => {
    const { f, reported } = await start();
    const w = await cache.watch({ start: { kind: 'Any' }, initialEvents: false });
    const events = drain(w);
    await f.store.create(`${P}a`, value('a'));
    await f.store.create(`${P}b`, value('b'));
    await until(() => cache.revision === 2, 'the cache to see both writes');
    await cache.restart();
    const evs = await events;
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ERROR']);
    const last = evs[2] as { error: WatchCacheError };
    expect(last.error.code).toBe('Reset');
    expect(last.error.cause).toBeUndefined();
    expect(reported).toEqual([]);
  });

  it('a store that fails the first list: ready() rejects, it is reported, and the cache recovers once the store answers', async () => {
    const down = new Error('store unavailable at start');
    const { f, reported } = open(undefined, (store) => store.failLists(down));
    await expect(cache.ready()).rejects.toBe(down);
    await until(() => reported.length >= 2, 'a retried list');
    expect(reported.every((e) => e === down)).toBe(true);
    await f.inner.create(`${P}a`, value('a'));
    f.failLists(undefined);
    await until(() => f.watchesOpened === 1, 'the cache to list and watch the store');
    await cache.ready();
    const listed = await cache.list({ revision: { kind: 'Any' } });
    expect(listed.items.map((o) => o.metadata?.name)).toEqual(['a']);
  });

  it('restart() whose list fails rejects, and the cache keeps retrying until the store answers', async () => {
    const { f, reported } = await start();
    const down = new Error('store unavailable during restart');
    f.failLists(down);
    await expect(cache.restart()).rejects.toBe(down);
    await until(() => reported.length >= 2, 'a retried list');
    f.failLists(undefined);
    await until(() => f.watchesOpened === 2, 'the cache to list and watch again');
    await cache.ready();
    await f.store.create(`${P}b`, value('b'));
    await until(() => cache.revision === 1, 'the cache to see the write');
  });
});
