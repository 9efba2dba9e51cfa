import { afterEach, describe, expect, it } from 'vitest';
import { isWatchCacheError } from './errors.js';
import { decode } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';
import { brief, cache, cleanup, P, settle, setup, store, take, value } from './watch-cache-harness.js';

/** The watch side of createWatchCache (the reads are in watch-cache.test.ts). */
afterEach(cleanup);

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
