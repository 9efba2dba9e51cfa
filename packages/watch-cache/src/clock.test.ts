import { createMemoryStore } from '@orchard/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decode, encodeJson } from './test-fixture.js';
import { createWatchCache } from './watch-cache.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createWatchCache: one clock', () => {
  it('the TooLargeResourceVersion wait is timed by timers, never by reading the wall clock', async () => {
    // The wall clock stands still (only Date is faked); the injected clock too. Timers still run.
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    const store = createMemoryStore();
    const cache = createWatchCache(store, { prefix: '/w/', decode, now: () => 0, tooLargeWaitMs: 40 });
    try {
      await cache.ready();
      await expect(cache.get('/w/a', { kind: 'NotOlderThan', revision: 5 })).rejects.toMatchObject({
        code: 'TooLargeResourceVersion',
        requested: 5,
        revision: 0,
      });
    } finally {
      await cache.stop();
    }
  }, 5000);

  it('the time window reads only the injected clock (a wall clock far ahead evicts nothing)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2100, 0, 1) });
    let clock = 1000;
    const store = createMemoryStore();
    const cache = createWatchCache(store, {
      prefix: '/w/',
      decode,
      now: () => clock,
      windowMs: 100,
      bookmarkIntervalMs: 0,
    });
    try {
      await cache.ready();
      await store.create('/w/a', encodeJson({ metadata: { name: 'a' } }));
      for (let i = 0; i < 500 && cache.revision < 1; i++) await new Promise((r) => setTimeout(r, 1));
      cache.evict();
      expect(cache.stats().windowEvents).toBe(1);
      clock += 101;
      cache.evict();
      expect(cache.stats().windowEvents).toBe(0);
      expect(cache.oldestRevision).toBe(1);
    } finally {
      await cache.stop();
    }
  });
});
