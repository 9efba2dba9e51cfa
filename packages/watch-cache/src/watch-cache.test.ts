import type { ApiObject } from '@orchard/meta';
import { createMemoryStore, type Store } from '@orchard/store';
import { afterEach, describe, expect, it } from 'vitest';
import { isWatchCacheError } from './errors.js';
import { decode } from './test-fixture.js';
import { createWatchCache, type WatchCache } from './watch-cache.js';
import type { CacheWatcher, WatchCacheEvent } from './watcher.js';

const enc = new TextEncoder();
const P = '/registry/widgets/';

function value(name: string, labels: Record<string, string> = {}, data = ''): Uint8Array {
  return enc.encode(JSON.stringify({ kind: 'Widget', metadata: { name, labels }, data }));
}
const names = (items: ApiObject[]) => items.map((o) => o.metadata?.name);

let store: Store;
let cache: WatchCache;
let clock = 1_000_000;

async function setup(opts: Partial<Parameters<typeof createWatchCache>[1]> = {}) {
  store = createMemoryStore();
  clock = 1_000_000;
  cache = createWatchCache(store, {
    prefix: P,
    decode,
    now: () => clock,
    bookmarkIntervalMs: 0,
    tooLargeWaitMs: 30,
    ...opts,
  });
  await cache.ready();
}

/** Resolves after the cache has applied every write made so far. */
async function settle(): Promise<void> {
  const rev = await store.currentRevision();
  for (let i = 0; i < 1000 && cache.revision < rev; i++) await new Promise((r) => setTimeout(r, 1));
}

async function take(w: CacheWatcher, n: number): Promise<WatchCacheEvent[]> {
  const out: WatchCacheEvent[] = [];
  if (n === 0) return out;
  for await (const ev of w) {
    out.push(ev);
    if (out.length >= n) break;
  }
  return out;
}
const brief = (evs: WatchCacheEvent[]) =>
  evs.map((e) =>
    e.type === 'ERROR'
      ? `ERROR:${e.error.code}`
      : `${e.type}:${e.object.metadata?.name ?? e.object.metadata?.resourceVersion}`,
  );

afterEach(async () => {
  await cache?.stop();
  await store?.close();
});

describe('createWatchCache: reads', () => {
  it('loads the initial state and serves list/get at the current revision', async () => {
    store = createMemoryStore();
    await store.create(`${P}a`, value('a'));
    await store.create(`${P}b`, value('b'));
    await store.create('/registry/other/x', value('x'));
    cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
    const res = await cache.list({ revision: { kind: 'Any' } });
    expect(names(res.items)).toEqual(['a', 'b']);
    expect(res.revision).toBe(3);
    expect((await cache.get(`${P}a`, { kind: 'Any' })).object?.metadata?.resourceVersion).toBe('1');
    expect((await cache.get(`${P}zz`, { kind: 'Any' })).object).toBeUndefined();
  });

  it('follows writes, pages in key order, and reports remaining keys', async () => {
    await setup();
    for (const n of ['d', 'a', 'c', 'b', 'e']) await store.create(`${P}${n}`, value(n));
    await settle();
    const p1 = await cache.list({ revision: { kind: 'Any' }, limit: 2 });
    expect(names(p1.items)).toEqual(['a', 'b']);
    expect(p1.remaining).toBe(3);
    const p2 = await cache.list({
      revision: { kind: 'Exact', revision: p1.revision },
      limit: 2,
      startKey: p1.nextKey,
    });
    expect(names(p2.items)).toEqual(['c', 'd']);
    const p3 = await cache.list({
      revision: { kind: 'Exact', revision: p1.revision },
      limit: 2,
      startKey: p2.nextKey,
    });
    expect(names(p3.items)).toEqual(['e']);
    expect(p3.remaining).toBe(0);
    expect(p3.nextKey).toBeUndefined();
  });

  it('rebuilds the state at an Exact revision inside the window', async () => {
    await setup();
    await store.create(`${P}a`, value('a', {}, 'v1'));
    const r1 = (await store.create(`${P}b`, value('b'))).modRevision;
    await store.update(`${P}a`, () => value('a', {}, 'v2'));
    await store.delete(`${P}b`);
    await store.create(`${P}c`, value('c'));
    await settle();
    const at = await cache.list({ revision: { kind: 'Exact', revision: r1 } });
    expect(at.revision).toBe(r1);
    expect(names(at.items)).toEqual(['a', 'b']);
    expect(at.items[0]?.data).toBe('v1');
    const now = await cache.list({ revision: { kind: 'Any' } });
    expect(names(now.items)).toEqual(['a', 'c']);
    expect(now.items[0]?.data).toBe('v2');
  });

  it('answers Exact below the window with TooOldResourceVersion, or from the store with storeFallback', async () => {
    await setup({ maxEvents: 2 });
    for (const n of ['a', 'b', 'c', 'd']) await store.create(`${P}${n}`, value(n));
    await settle();
    expect(cache.oldestRevision).toBe(2);
    const err = await cache.list({ revision: { kind: 'Exact', revision: 1 } }).catch((e) => e);
    expect(isWatchCacheError(err, 'TooOldResourceVersion')).toBe(true);
    const fb = await cache.list({ revision: { kind: 'Exact', revision: 1 }, storeFallback: true });
    expect(names(fb.items)).toEqual(['a']);
    expect(fb.fromCache).toBe(false);
  });

  it('evicts by time with the injected clock', async () => {
    await setup({ windowMs: 1000 });
    await store.create(`${P}a`, value('a'));
    await settle();
    clock += 500;
    await store.create(`${P}b`, value('b'));
    await settle();
    clock += 600; // a is now 1100 ms old, b 600 ms
    cache.evict();
    expect(cache.oldestRevision).toBe(1);
    expect(cache.stats().windowEvents).toBe(1);
    await expect(cache.watch({ start: { kind: 'Exact', revision: 0 } })).rejects.toMatchObject({
      code: 'TooOldResourceVersion',
    });
  });

  it('waits for a revision the store has not reached, then fails with TooLargeResourceVersion', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    const err = await cache.list({ revision: { kind: 'NotOlderThan', revision: 99 } }).catch((e) => e);
    expect(isWatchCacheError(err, 'TooLargeResourceVersion')).toBe(true);
    expect(err.message).toContain('Too large resource version: 99');
    await expect(cache.get(`${P}a`, { kind: 'NotOlderThan', revision: 50 })).rejects.toMatchObject({
      code: 'TooLargeResourceVersion',
    });
  });

  it('serves a NotOlderThan read once the revision arrives during the wait', async () => {
    await setup({ tooLargeWaitMs: 5000 });
    const pending = cache.list({ revision: { kind: 'NotOlderThan', revision: 2 } });
    await store.create(`${P}a`, value('a'));
    await store.create(`${P}b`, value('b'));
    const res = await pending;
    expect(res.revision).toBeGreaterThanOrEqual(2);
    expect(names(res.items)).toEqual(['a', 'b']);
  });

  it('MostRecent sees every write acknowledged before the read', async () => {
    await setup();
    for (let i = 0; i < 20; i++) {
      await store.create(`${P}k${String(i).padStart(2, '0')}`, value(`k${i}`));
      const res = await cache.list({});
      expect(res.items.length).toBe(i + 1);
    }
  });

  it('with progressPrefix, MostRecent reads are served from the cache even when other resources change', async () => {
    await setup({ progressPrefix: '/registry/' });
    await store.create(`${P}a`, value('a'));
    await store.create('/registry/other/x', value('x'));
    const res = await cache.list({});
    expect(res.fromCache).toBe(true);
    expect(res.revision).toBe(2);
  });

  it('filters lists with a predicate and keeps paging by key', async () => {
    await setup();
    for (let i = 0; i < 10; i++)
      await store.create(`${P}k${i}`, value(`k${i}`, { even: String(i % 2 === 0) }));
    await settle();
    const p = (o: ApiObject) => o.metadata?.labels?.even === 'true';
    const p1 = await cache.list({ revision: { kind: 'Any' }, predicate: p, limit: 3 });
    expect(names(p1.items)).toEqual(['k0', 'k2', 'k4']);
    const p2 = await cache.list({
      revision: { kind: 'Exact', revision: p1.revision },
      predicate: p,
      limit: 3,
      startKey: p1.nextKey,
    });
    expect(names(p2.items)).toEqual(['k6', 'k8']);
  });

  it('surfaces an undecodable value as Corrupt, never dropping it', async () => {
    await setup();
    await store.create(`${P}bad`, enc.encode('{nope'));
    await settle();
    await expect(cache.list({ revision: { kind: 'Any' } })).rejects.toMatchObject({
      code: 'Corrupt',
      key: `${P}bad`,
    });
    await expect(cache.get(`${P}bad`, { kind: 'Any' })).rejects.toMatchObject({ code: 'Corrupt' });
  });
});

describe('createWatchCache: key prefixes and history', () => {
  it('restricts lists and watches to a key prefix (a namespace)', async () => {
    await setup();
    for (const k of ['ns1/a', 'ns1/b', 'ns10/c', 'ns2/d']) await store.create(`${P}${k}`, value(k));
    await settle();
    const l = await cache.list({ revision: { kind: 'Any' }, keyPrefix: `${P}ns1/`, limit: 1 });
    expect(names(l.items)).toEqual(['ns1/a']);
    expect(l.remaining).toBe(1);
    const l2 = await cache.list({
      revision: { kind: 'Exact', revision: l.revision },
      keyPrefix: `${P}ns1/`,
      startKey: l.nextKey,
    });
    expect(names(l2.items)).toEqual(['ns1/b']);
    expect(l2.nextKey).toBeUndefined();
    const w = await cache.watch({ start: { kind: 'Any' }, keyPrefix: `${P}ns2/` });
    await store.create(`${P}ns1/z`, value('ns1/z'));
    await store.create(`${P}ns2/z`, value('ns2/z'));
    expect(brief(await take(w, 2))).toEqual(['ADDED:ns2/d', 'ADDED:ns2/z']);
  });

  it('replayHistory: a cache created after writes serves watches from their versions', async () => {
    store = createMemoryStore();
    const r1 = (await store.create(`${P}a`, value('a'))).modRevision;
    await store.create(`${P}b`, value('b'));
    cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0, replayHistory: true });
    const w = await cache.watch({ start: { kind: 'Exact', revision: r1 } });
    expect(brief(await take(w, 1))).toEqual(['ADDED:b']);
    expect(cache.oldestRevision).toBe(0);
  });
});

describe('createWatchCache: watch', () => {
  it('Any/MostRecent start: synthetic ADDED for the state, then changes', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    await settle();
    const w = await cache.watch({ start: { kind: 'MostRecent' } });
    await store.create(`${P}b`, value('b'));
    await store.update(`${P}a`, () => value('a', {}, 'x'));
    await store.delete(`${P}b`);
    expect(brief(await take(w, 4))).toEqual(['ADDED:a', 'ADDED:b', 'MODIFIED:a', 'DELETED:b']);
  });

  it('Exact start: only changes after that revision, replayed from the window', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    const r = (await store.create(`${P}b`, value('b'))).modRevision;
    await store.create(`${P}c`, value('c'));
    await settle();
    const w = await cache.watch({ start: { kind: 'Exact', revision: r } });
    await store.delete(`${P}a`);
    const evs = await take(w, 2);
    expect(brief(evs)).toEqual(['ADDED:c', 'DELETED:a']);
    expect(evs[1]?.revision).toBe(4);
    expect(evs[1]?.type !== 'ERROR' && evs[1]?.object.metadata?.resourceVersion).toBe('4');
  });

  it('Exact start below the window: TooOldResourceVersion', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    await settle();
    // A fresh cache's window starts at its initial list.
    const c2 = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
    await c2.ready();
    const err = await c2.watch({ start: { kind: 'Exact', revision: 0 } }).catch((e) => e);
    expect(isWatchCacheError(err, 'TooOldResourceVersion')).toBe(true);
    expect(err.message).toBe('too old resource version: 0 (1)');
    await c2.stop();
  });

  it('honours store compaction: versions compacted away are gone even inside the window', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    await store.create(`${P}b`, value('b'));
    await settle();
    await expect(cache.watch({ start: { kind: 'Exact', revision: 1 } })).resolves.toBeDefined();
    await store.compact(2);
    const err = await cache.watch({ start: { kind: 'Exact', revision: 1 } }).catch((e) => e);
    expect(err.message).toBe('too old resource version: 1 (2)');
    await expect(cache.list({ revision: { kind: 'Exact', revision: 1 } })).rejects.toMatchObject({
      code: 'TooOldResourceVersion',
    });
  });

  it('Exact start in the future waits for the store, then fails with TooLargeResourceVersion', async () => {
    await setup();
    await expect(cache.watch({ start: { kind: 'Exact', revision: 10 } })).rejects.toMatchObject({
      code: 'TooLargeResourceVersion',
    });
  });

  it('applies selector transitions: stops matching → DELETED, starts matching → ADDED', async () => {
    await setup();
    await store.create(`${P}a`, value('a', { tier: 'web' }));
    await settle();
    const w = await cache.watch({
      start: { kind: 'MostRecent' },
      predicate: (o) => o.metadata?.labels?.tier === 'web',
    });
    await store.create(`${P}b`, value('b', { tier: 'db' }));
    await store.update(`${P}a`, () => value('a', { tier: 'db' }));
    await store.update(`${P}b`, () => value('b', { tier: 'web' }));
    await store.update(`${P}b`, () => value('b', { tier: 'web' }, 'x'));
    await store.delete(`${P}a`);
    await store.delete(`${P}b`);
    const evs = await take(w, 5);
    expect(brief(evs)).toEqual(['ADDED:a', 'DELETED:a', 'ADDED:b', 'MODIFIED:b', 'DELETED:b']);
    // The DELETED for "stopped matching" carries the last matching state at the event's revision.
    const del = evs[1];
    expect(del?.type !== 'ERROR' && del?.object.metadata?.labels?.tier).toBe('web');
    expect(del?.type !== 'ERROR' && del?.object.metadata?.resourceVersion).toBe('3');
  });

  it('sendInitialEvents: ADDED events, then a BOOKMARK annotated initial-events-end, then changes', async () => {
    await setup({ domain: 'k8s.io' });
    await store.create(`${P}a`, value('a'));
    await settle();
    const w = await cache.watch({
      start: { kind: 'NotOlderThan', revision: 1 },
      initialEventsEndBookmark: true,
      allowBookmarks: true,
    });
    await store.create(`${P}b`, value('b'));
    const evs = await take(w, 3);
    expect(brief(evs)).toEqual(['ADDED:a', 'BOOKMARK:1', 'ADDED:b']);
    const bm = evs[1];
    expect(bm?.type === 'BOOKMARK' && bm.object).toEqual({
      metadata: { resourceVersion: '1', annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
  });

  it('sends periodic BOOKMARKs only to watchers that allow them', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    await settle();
    await store.create('/registry/other/x', value('x'));
    const yes = await cache.watch({ start: { kind: 'Exact', revision: 1 }, allowBookmarks: true });
    const no = await cache.watch({ start: { kind: 'Exact', revision: 1 } });
    cache.sendBookmarks();
    await store.create(`${P}b`, value('b'));
    expect(brief(await take(yes, 2))).toEqual(['BOOKMARK:1', 'ADDED:b']);
    expect(brief(await take(no, 1))).toEqual(['ADDED:b']);
  });

  it('does not let a slow watcher stall the others; it is closed with WatcherTooSlow', async () => {
    await setup({ watcherBufferSize: 5 });
    const slow = await cache.watch({ start: { kind: 'Exact', revision: 0 } });
    const fast = await cache.watch({ start: { kind: 'Exact', revision: 0 } });
    const seen: string[] = [];
    const consume = (async () => {
      for await (const ev of fast) {
        if (ev.type !== 'ERROR') seen.push(ev.object.metadata?.name as string);
        if (seen.length === 20) break;
      }
    })();
    for (let i = 0; i < 20; i++) {
      await store.create(`${P}k${i}`, value(`k${i}`));
      // Writes arrive in separate turns of the event loop, as requests do.
      await new Promise((r) => setImmediate(r));
    }
    await consume;
    expect(seen.length).toBe(20);
    // The slow watcher still delivers what it had, then ends with the reason.
    const got = await take(slow, 100);
    expect(got.length).toBeGreaterThanOrEqual(5);
    expect(got.length).toBeLessThan(20);
    expect(slow.closeReason?.code).toBe('WatcherTooSlow');
    // Its last delivered revision is a valid resume point.
    const last = got[got.length - 1]?.revision as number;
    const resumed = await cache.watch({ start: { kind: 'Exact', revision: last } });
    const rest = await take(resumed, 20 - got.length);
    expect(rest.map((e) => e.revision)).toEqual(
      Array.from({ length: 20 - got.length }, (_, i) => last + i + 1),
    );
  });

  it('nextBatch hands over every queued event at once, in order', async () => {
    await setup();
    const w = await cache.watch({ start: { kind: 'Exact', revision: 0 } });
    for (let i = 0; i < 5; i++) await store.create(`${P}k${i}`, value(`k${i}`));
    const got: number[] = [];
    while (got.length < 5) {
      const batch = await w.nextBatch();
      if (!batch) break;
      got.push(...batch.map((e) => e.revision));
    }
    expect(got).toEqual([1, 2, 3, 4, 5]);
    w.close();
    expect(await w.nextBatch()).toBeUndefined();
  });

  it('listen (push mode) hands over bursts synchronously and reports the end', async () => {
    await setup();
    const w = await cache.watch({ start: { kind: 'Exact', revision: 0 } });
    const got: number[] = [];
    let ended = false;
    w.listen(
      (evs) => got.push(...evs.map((e) => e.revision)),
      () => {
        ended = true;
      },
    );
    for (let i = 0; i < 3; i++) await store.create(`${P}k${i}`, value(`k${i}`));
    await settle();
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([1, 2, 3]);
    await cache.restart();
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(true);
  });

  it('restart ends every watcher with a Reset ERROR event', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    await settle();
    const w = await cache.watch({ start: { kind: 'Exact', revision: 1 } });
    await cache.restart();
    const evs = await take(w, 5);
    expect(brief(evs)).toEqual(['ERROR:Reset']);
    expect(w.closeReason?.code).toBe('Reset');
    expect(cache.oldestRevision).toBe(1);
  });

  it('MostRecent watch falls back to the store snapshot when the cache lags, missing nothing', async () => {
    await setup();
    await store.create(`${P}a`, value('a'));
    // No settle: the cache may lag; either path must give a, b exactly once.
    const w = await cache.watch({ start: { kind: 'MostRecent' } });
    await store.create(`${P}b`, value('b'));
    expect(brief(await take(w, 2))).toEqual(['ADDED:a', 'ADDED:b']);
  });
});
