import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Periodic store compaction (`compactionIntervalMs`, `--compaction-interval`) on a running server,
 * driven by a fake clock: each tick compacts to the revision of the previous tick, old versions then
 * answer 410, while current reads and open watches carry on.
 */
const NS = 'compaction';
const base = `/api/v1/namespaces/${NS}/configmaps`;

/**
 * Vitest fake timers drive the compactor's default (system) interval and the clock it and the
 * watch cache read (`Date`); timeouts and I/O stay real. `advance(ms)` runs every tick due, then
 * yields one macrotask so each tick's store work (promises only) has settled.
 */
function fakeClock() {
  vi.useFakeTimers({ now: Date.now(), toFake: ['setInterval', 'clearInterval', 'Date'] });
  return {
    async advance(ms: number) {
      await vi.advanceTimersByTimeAsync(ms);
      await new Promise((r) => setImmediate(r));
    },
  };
}

type Meta = { metadata: { resourceVersion: string; continue?: string }; data?: Record<string, string> };

describe('store compaction on a running server', () => {
  let api: TestServer;
  let clock: ReturnType<typeof fakeClock>;
  const interval = 60_000;
  const rv = (r: { json: unknown }) => Number((r.json as Meta).metadata.resourceVersion);
  const update = async (i: number) => {
    const r = await api.request('PUT', `${base}/hot`, {
      body: { metadata: { name: 'hot', namespace: NS }, data: { n: String(i) } },
    });
    expect(r.status).toBe(200);
    return rv(r);
  };

  beforeAll(async () => {
    clock = fakeClock();
    api = await startTestServer({
      insecureHttp: true,
      server: {
        // A short watch window, so an old version is outside it after a few real milliseconds.
        watchCache: { windowMs: 50, bookmarkIntervalMs: 0 },
        compactionIntervalMs: interval,
      },
    });
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  });
  afterAll(async () => {
    await api?.stop();
    vi.useRealTimers();
  });

  it('compacts to the previous tick; old versions 410, current reads and open watches keep working', async () => {
    const store = api.server.storage;
    expect((await api.request('POST', base, { body: { metadata: { name: 'cold' } } })).status).toBe(201);
    const created = await api.request('POST', base, {
      body: { metadata: { name: 'hot' }, data: { n: '0' } },
    });
    expect(created.status).toBe(201);
    const oldRv = rv(created);
    const page = await api.request('GET', `${base}?limit=1`);
    const token = (page.json as Meta).metadata.continue;
    expect(token).toBeTruthy();
    const watch = await openWatch(api, base, { resourceVersion: String(oldRv) });

    // Ticks every interval; each compacts to what the previous one saw, so compactedRevision
    // trails the current revision by one interval of writes and the history stays bounded.
    await clock.advance(interval);
    expect(await store.compactedRevision()).toBe(0);
    let observed = await store.currentRevision();
    let last = oldRv;
    for (let round = 1; round <= 5; round++) {
      for (let i = 0; i < 20; i++) last = await update(round * 100 + i);
      await clock.advance(interval);
      expect(await store.compactedRevision()).toBe(observed);
      observed = await store.currentRevision();
    }
    expect(await store.compactedRevision()).toBeGreaterThan(oldRv);
    await expect(store.get(`/`, { atRevision: oldRv })).rejects.toMatchObject({ code: 'Compacted' });

    await clock.advance(100); // age oldRv past the 50 ms watch window
    const exact = await api.request('GET', `${base}?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(410);
    expect((exact.json as { reason?: string }).reason).toBe('Expired');
    // A continue token reads its snapshot from the store: compacted away, it expires.
    const next = await api.request('GET', `${base}?limit=1&continue=${encodeURIComponent(token ?? '')}`);
    expect(next.status).toBe(410);

    const list = await api.request('GET', base);
    expect(list.status).toBe(200);
    expect(rv(list)).toBeGreaterThanOrEqual(last);
    const hot = await api.request('GET', `${base}/hot`);
    expect((hot.json as Meta).data?.n).toBe('519');

    // The watch opened before any compaction saw every update, in order, and is still open.
    await watch.until(100);
    expect(watch.events.every((e) => e.type === 'MODIFIED')).toBe(true);
    expect(watch.events.at(-1)?.object.metadata?.resourceVersion).toBe(String(last));
    await update(999);
    await watch.until(101);
    expect(watch.events[100]?.type).toBe('MODIFIED');
    watch.close();

    // A watch from the current version works after compaction too.
    const fresh = await openWatch(api, base, { resourceVersion: String(await update(1000)) });
    await update(1001);
    await fresh.until(1);
    expect(fresh.events[0]?.object.metadata?.resourceVersion).toBe(String(await store.currentRevision()));
    fresh.close();
  });

  it('stops compacting when the server closes', async () => {
    // The fake clock of this suite drives this server's compactor too.
    const other = clock;
    const s = await startTestServer({
      insecureHttp: true,
      server: { compactionIntervalMs: interval },
    });
    await s.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
    await other.advance(interval);
    await s.request('POST', base, { body: { metadata: { name: 'x' } } });
    const store = s.server.storage;
    await s.stop();
    await other.advance(10 * interval);
    expect(await store.compactedRevision()).toBe(0);
  });
});

describe('compaction disabled', () => {
  it('compactionIntervalMs 0 never compacts', async () => {
    const clock = fakeClock();
    const s = await startTestServer({
      insecureHttp: true,
      server: { compactionIntervalMs: 0 },
    });
    await s.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
    for (let i = 0; i < 3; i++) {
      await s.request('POST', base, { body: { metadata: { name: `c${i}` } } });
      await clock.advance(10 * 60_000);
    }
    expect(await s.server.storage.compactedRevision()).toBe(0);
    await s.stop();
    vi.useRealTimers();
  });
});
