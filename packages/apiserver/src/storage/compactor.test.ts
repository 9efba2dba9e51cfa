import type { ApiObject } from '@orchard/meta';
import { createMemoryStore, type KeyValue, type Store } from '@orchard/store';
import { createWatchCache, isWatchCacheError, type WatchCacheEvent } from '@orchard/watch-cache';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCompactor } from './compactor.js';

/**
 * Vitest fake timers drive the compactor's default (system) timers: `advance(ms)` runs every interval
 * due and lets each tick's store work settle; `active` counts the pending timers.
 */
function fakeTimers() {
  // Only what the compactor uses: the watch cache's own timers and I/O stay real.
  vi.useFakeTimers({ now: 0, toFake: ['setInterval', 'clearInterval', 'Date'] });
  return {
    get active() {
      return vi.getTimerCount();
    },
    async advance(ms: number) {
      await vi.advanceTimersByTimeAsync(ms);
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

const bytes = (n: number) => new Uint8Array([n]);

async function writes(store: Store, key: string, n: number): Promise<number> {
  if (!(await store.get(key)).kv) await store.create(key, bytes(0));
  for (let i = 0; i < n; i++) await store.update(key, () => bytes(i));
  return store.currentRevision();
}

describe('compactor', () => {
  it('compacts each tick to the revision recorded at the previous tick', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000 });
    const r1 = await writes(store, '/k', 5);
    await clock.advance(1000); // first tick: records r1, nothing older to compact to
    expect(await store.compactedRevision()).toBe(0);
    const r2 = await writes(store, '/k', 5);
    await clock.advance(1000);
    expect(await store.compactedRevision()).toBe(r1);
    await writes(store, '/k', 5);
    await clock.advance(1000);
    expect(await store.compactedRevision()).toBe(r2);
    // Below the compacted revision history is gone; at and above it reads still work.
    await expect(store.get('/k', { atRevision: r2 - 1 })).rejects.toMatchObject({ code: 'Compacted' });
    expect((await store.get('/k', { atRevision: r2 })).kv?.modRevision).toBe(r2);
    await compactor.stop();
  });

  it('keeps at least minRetainMs of history when it exceeds the interval', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000, minRetainMs: 2500 });
    const revs: number[] = [];
    for (let i = 0; i < 5; i++) {
      revs.push(await writes(store, '/k', 2));
      await clock.advance(1000);
    }
    // Ticks at t=1000..5000 recorded revs[0..4]; at t=5000 the newest sample ≥ 2500 ms old is t=2000.
    expect(await store.compactedRevision()).toBe(revs[1]);
    await compactor.stop();
  });

  it('an idle store is not compacted again', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000 });
    const r = await writes(store, '/k', 3);
    await clock.advance(2000);
    expect(await store.compactedRevision()).toBe(r);
    expect(await compactor.tick()).toBeUndefined();
    await compactor.stop();
  });

  it('is disabled at interval 0: no timer, no compaction', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 0 });
    expect(clock.active).toBe(0);
    await writes(store, '/k', 5);
    await clock.advance(60_000);
    expect(await store.compactedRevision()).toBe(0);
    await compactor.stop();
  });

  it('stops: the timer is cleared and no tick compacts afterwards', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000 });
    await writes(store, '/k', 3);
    await clock.advance(1000);
    expect(clock.active).toBe(1);
    await compactor.stop();
    expect(clock.active).toBe(0);
    await writes(store, '/k', 3);
    await clock.advance(5000);
    expect(await compactor.tick()).toBeUndefined();
    expect(await store.compactedRevision()).toBe(0);
    await compactor.stop();
  });

  it('a store watch from before the previous tick is refused as compacted', async () => {
    const store = createMemoryStore();
    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000 });
    const first = await writes(store, '/k', 50);
    await clock.advance(1000);
    await writes(store, '/k', 50);
    await clock.advance(1000);
    // Only revisions after the previous tick remain watchable from the store.
    await expect(
      (async () => {
        for await (const _ of store.watch('/', { fromRevision: 1 })) break;
      })(),
    ).rejects.toMatchObject({ code: 'Compacted' });
    expect(await store.compactedRevision()).toBe(first);
    await compactor.stop();
  });
});

describe('compaction under an open watch cache', () => {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const value = (name: string, data: number) => enc.encode(JSON.stringify({ metadata: { name }, data }));
  const decode = (kv: KeyValue): ApiObject => {
    const o = JSON.parse(dec.decode(kv.value)) as ApiObject;
    o.metadata = { ...o.metadata, resourceVersion: String(kv.modRevision) };
    return o;
  };

  it('open watches keep streaming; reads below the compacted revision are too old; current reads work', async () => {
    const store = createMemoryStore();
    const cache = createWatchCache(store, {
      prefix: '/w/',
      progressPrefix: '/',
      decode,
      bookmarkIntervalMs: 0,
      replayHistory: true,
    });
    await cache.ready();
    await store.create('/w/a', value('a', 0));
    const early = await store.currentRevision();
    const watcher = await cache.watch({ start: { kind: 'Exact', revision: early } });
    const seen: WatchCacheEvent[] = [];
    const consumed = (async () => {
      for await (const ev of watcher) {
        seen.push(ev);
        if (seen.length === 20) break;
      }
    })();

    const clock = fakeTimers();
    const compactor = createCompactor(store, { intervalMs: 1000 });
    for (let i = 1; i <= 10; i++) await store.update('/w/a', () => value('a', i));
    await clock.advance(1000);
    for (let i = 11; i <= 20; i++) await store.update('/w/a', () => value('a', i));
    await clock.advance(1000);
    const compacted = await store.compactedRevision();
    expect(compacted).toBe(early + 10);

    await consumed;
    expect(seen.map((e) => e.type)).toEqual(Array(20).fill('MODIFIED'));
    expect(watcher.closeReason).toBeUndefined();

    const tooOld = await cache
      .list({ revision: { kind: 'Exact', revision: early } })
      .catch((e: unknown) => e);
    expect(isWatchCacheError(tooOld) && tooOld.code).toBe('TooOldResourceVersion');
    const now = await cache.list({ revision: { kind: 'MostRecent' } });
    expect(now.items.map((o) => (o as ApiObject & { data: number }).data)).toEqual([20]);

    // A watch started after the compaction still follows new writes.
    const later = await cache.watch({ start: { kind: 'Exact', revision: await store.currentRevision() } });
    await store.update('/w/a', () => value('a', 21));
    const next = await later.nextBatch();
    expect(next?.map((e) => e.type)).toEqual(['MODIFIED']);
    later.close();
    await compactor.stop();
    await cache.stop();
  });
});
