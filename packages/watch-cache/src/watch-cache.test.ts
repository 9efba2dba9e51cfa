import type { ApiObject } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { afterEach, describe, expect, it } from 'vitest';
import { isWatchCacheError } from './errors.js';
import { decode } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';
import {
  brief,
  cache,
  cleanup,
  names,
  P,
  settle,
  setup,
  store,
  take,
  tick,
  useCache,
  useStore,
  value,
} from './watch-cache-harness.js';

afterEach(cleanup);

describe('createWatchCache: reads', () => {
  it('loads the initial state and serves list/get at the current revision', async () => {
    useStore(createMemoryStore());
    await store.create(`${P}a`, value('a'));
    await store.create(`${P}b`, value('b'));
    await store.create('/registry/other/x', value('x'));
    useCache(createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 }));
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
    tick(500);
    await store.create(`${P}b`, value('b'));
    await settle();
    tick(600); // a is now 1100 ms old, b 600 ms
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
    await store.create(`${P}bad`, new TextEncoder().encode('{nope'));
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
    useStore(createMemoryStore());
    const r1 = (await store.create(`${P}a`, value('a'))).modRevision;
    await store.create(`${P}b`, value('b'));
    useCache(createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0, replayHistory: true }));
    const w = await cache.watch({ start: { kind: 'Exact', revision: r1 } });
    expect(brief(await take(w, 1))).toEqual(['ADDED:b']);
    expect(cache.oldestRevision).toBe(0);
  });
});
