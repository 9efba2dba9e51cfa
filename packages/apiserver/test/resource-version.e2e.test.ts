import { isClientError, type RestClient } from '@orchard/client';
import { inconsistentContinueMessage } from '@orchard/pager/internal';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Spec doc 1 §4.5 (both tables), §4.6 (every watch case), §4.7 and §7 (410, 504) against the real
 * HTTP server: one test per cell.
 */

interface List {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: {
    metadata: { name: string; resourceVersion: string; labels?: Record<string, string> };
    data?: Record<string, string>;
  }[];
}
interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
  metadata: { continue?: string };
  details?: { retryAfterSeconds?: number };
}

const NS = 'rv';
const base = `/api/v1/namespaces/${NS}/configmaps`;
const names = (l: List) => l.items.map((i) => i.metadata.name);

let api: TestServer;
let client: RestClient;
/** Revisions after creating a, b, c, d, e (in that order). */
const rvAfter: Record<string, number> = {};

async function list(
  query: string,
): Promise<{ status: number; body: List & StatusBody; headers: Record<string, unknown> }> {
  const r = await api.request('GET', `${base}${query ? `?${query}` : ''}`);
  return { status: r.status, body: r.json as List & StatusBody, headers: r.headers };
}

async function current(): Promise<number> {
  return api.server.storage.currentRevision();
}

for (const flavor of ['orch', 'kubernetes'] as const) {
  describe(`resourceVersion semantics (${flavor} flavor)`, () => {
    const domain = flavor === 'orch' ? 'orch.io' : 'k8s.io';
    beforeAll(async () => {
      api = await startTestServer({
        flavor,
        insecureHttp: true,
        server: { watchCache: { tooLargeWaitMs: 200, bookmarkIntervalMs: 100 } },
      });
      client = api.client;
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
      for (const n of ['a', 'b', 'c', 'd', 'e']) {
        const r = await api.request('POST', base, {
          body: { metadata: { name: n, labels: { tier: 'web' } }, data: { v: '1' } },
        });
        expect(r.status).toBe(201);
        rvAfter[n] = Number((r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      }
    });
    afterAll(async () => {
      await api.stop();
    });

    describe('§4.5 list table: resourceVersionMatch unset, limit unset', () => {
      it('rv unset → Most Recent: every acknowledged write, at the current revision', async () => {
        const r = await list('');
        expect(r.status).toBe(200);
        expect(names(r.body)).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(Number(r.body.metadata.resourceVersion)).toBe(await current());
        expect(r.body.metadata.continue).toBeUndefined();
        expect(r.body.metadata.remainingItemCount).toBeUndefined();
      });
      it('rv=0 → Any', async () => {
        const r = await list('resourceVersion=0');
        expect(r.status).toBe(200);
        expect(names(r.body)).toEqual(['a', 'b', 'c', 'd', 'e']);
      });
      it('rv=non-zero → Not older than', async () => {
        const r = await list(`resourceVersion=${rvAfter.b}`);
        expect(r.status).toBe(200);
        expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvAfter.b as number);
        expect(names(r.body)).toEqual(['a', 'b', 'c', 'd', 'e']);
      });
    });

    describe('§4.5 list table: resourceVersionMatch unset, limit=n, continue unset', () => {
      it('rv unset → Most Recent, first page with continue and remainingItemCount', async () => {
        const r = await list('limit=2');
        expect(names(r.body)).toEqual(['a', 'b']);
        expect(r.body.metadata.continue).toBeTruthy();
        expect(r.body.metadata.remainingItemCount).toBe(3);
        expect(Number(r.body.metadata.resourceVersion)).toBe(await current());
      });
      it('rv=0 → Any', async () => {
        const r = await list('limit=2&resourceVersion=0');
        expect(r.status).toBe(200);
        expect(names(r.body)).toEqual(['a', 'b']);
      });
      it('rv=non-zero → Exact: the collection at exactly that version', async () => {
        const r = await list(`limit=2&resourceVersion=${rvAfter.c}`);
        expect(r.status).toBe(200);
        expect(r.body.metadata.resourceVersion).toBe(String(rvAfter.c));
        expect(names(r.body)).toEqual(['a', 'b']);
        expect(r.body.metadata.remainingItemCount).toBe(1);
        const next = await list(`limit=2&continue=${encodeURIComponent(r.body.metadata.continue as string)}`);
        expect(names(next.body)).toEqual(['c']);
        expect(next.body.metadata.resourceVersion).toBe(String(rvAfter.c));
        expect(next.body.metadata.continue).toBeUndefined();
        expect(next.body.metadata.remainingItemCount).toBeUndefined();
      });
    });

    describe('§4.5 list table: resourceVersionMatch unset, limit=n, continue=token', () => {
      it('rv unset → Continue Token, Exact: later pages show the first page’s snapshot', async () => {
        const first = await list('limit=2');
        const snap = first.body.metadata.resourceVersion;
        // A write between pages is not visible in later pages.
        await api.request('POST', base, { body: { metadata: { name: 'ab' } } });
        const second = await list(
          `limit=2&continue=${encodeURIComponent(first.body.metadata.continue as string)}`,
        );
        expect(second.body.metadata.resourceVersion).toBe(snap);
        expect(names(second.body)).toEqual(['c', 'd']);
        const third = await list(
          `limit=2&continue=${encodeURIComponent(second.body.metadata.continue as string)}`,
        );
        expect(names(third.body)).toEqual(['e']);
        expect(third.body.metadata.resourceVersion).toBe(snap);
        await api.request('DELETE', `${base}/ab`);
      });
      it('rv=0 → Invalid, treated as Continue Token, Exact', async () => {
        const first = await list(`limit=2&resourceVersion=${rvAfter.e}`);
        const r = await list(
          `limit=2&resourceVersion=0&continue=${encodeURIComponent(first.body.metadata.continue as string)}`,
        );
        expect(r.status).toBe(200);
        expect(r.body.metadata.resourceVersion).toBe(String(rvAfter.e));
        expect(names(r.body)).toEqual(['c', 'd']);
      });
      it('rv=non-zero → Invalid, HTTP 400', async () => {
        const first = await list('limit=2');
        const r = await list(
          `limit=2&resourceVersion=${rvAfter.e}&continue=${encodeURIComponent(first.body.metadata.continue as string)}`,
        );
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' });
        expect(r.body.message).toBe('specifying resource version is not allowed when using continue');
      });
    });

    describe('§4.5 list table: resourceVersionMatch=Exact', () => {
      it.each([
        ['limit unset, rv unset', 'resourceVersionMatch=Exact'],
        ['limit unset, rv=0', 'resourceVersionMatch=Exact&resourceVersion=0'],
        ['limit=n, rv unset', 'resourceVersionMatch=Exact&limit=2'],
        ['limit=n, rv=0', 'resourceVersionMatch=Exact&limit=2&resourceVersion=0'],
      ])('%s → Invalid, 400', async (_name, q) => {
        const r = await list(q);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ kind: 'Status', code: 400 });
      });
      it('limit unset, rv=non-zero → Exact', async () => {
        const r = await list(`resourceVersionMatch=Exact&resourceVersion=${rvAfter.b}`);
        expect(r.status).toBe(200);
        expect(r.body.metadata.resourceVersion).toBe(String(rvAfter.b));
        expect(names(r.body)).toEqual(['a', 'b']);
      });
      it('limit=n, rv=non-zero → Exact', async () => {
        const r = await list(`resourceVersionMatch=Exact&resourceVersion=${rvAfter.d}&limit=3`);
        expect(r.body.metadata.resourceVersion).toBe(String(rvAfter.d));
        expect(names(r.body)).toEqual(['a', 'b', 'c']);
        expect(r.body.metadata.remainingItemCount).toBe(1);
      });
      it('with continue → Invalid, 400', async () => {
        const first = await list('limit=2');
        const r = await list(
          `resourceVersionMatch=Exact&resourceVersion=${rvAfter.d}&continue=${encodeURIComponent(first.body.metadata.continue as string)}`,
        );
        expect(r.status).toBe(400);
      });
    });

    describe('§4.5 list table: resourceVersionMatch=NotOlderThan', () => {
      it.each([
        ['limit unset, rv unset', 'resourceVersionMatch=NotOlderThan'],
        ['limit=n, rv unset', 'resourceVersionMatch=NotOlderThan&limit=2'],
      ])('%s → Invalid, 400', async (_name, q) => {
        const r = await list(q);
        expect(r.status).toBe(400);
        expect(r.body.message).toContain(
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        );
      });
      it.each([
        ['limit unset, rv=0', 'resourceVersionMatch=NotOlderThan&resourceVersion=0', 5],
        ['limit=n, rv=0', 'resourceVersionMatch=NotOlderThan&resourceVersion=0&limit=2', 2],
      ])('%s → Any', async (_name, q, n) => {
        const r = await list(q);
        expect(r.status).toBe(200);
        expect(r.body.items.length).toBe(n);
      });
      it.each([
        ['limit unset', ''],
        ['limit=n', '&limit=2'],
      ])('%s, rv=non-zero → Not older than', async (_name, extra) => {
        const r = await list(`resourceVersionMatch=NotOlderThan&resourceVersion=${rvAfter.a}${extra}`);
        expect(r.status).toBe(200);
        expect(Number(r.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvAfter.e as number);
      });
    });

    describe('§4.5 / §7: versions the server does not have', () => {
      it('list with a version the store has not reached: waits, then 504 with Retry-After and "Too large resource version"', async () => {
        const future = (await current()) + 1000;
        for (const q of [
          `resourceVersion=${future}`,
          `resourceVersionMatch=NotOlderThan&resourceVersion=${future}`,
          `resourceVersionMatch=Exact&resourceVersion=${future}`,
        ]) {
          const r = await list(q);
          expect(r.status, q).toBe(504);
          expect(r.headers['retry-after']).toBe('1');
          expect(r.body.message).toContain('Too large resource version');
          expect(r.body.details?.retryAfterSeconds).toBe(1);
        }
      });
      it('list that waits for a version written during the wait succeeds', async () => {
        const next = (await current()) + 1;
        const pending = list(`resourceVersion=${next}`);
        await api.request('POST', base, { body: { metadata: { name: 'late' } } });
        const r = await pending;
        expect(r.status).toBe(200);
        expect(names(r.body)).toContain('late');
        await api.request('DELETE', `${base}/late`);
      });
      it('invalid resourceVersion → 400', async () => {
        const r = await list('resourceVersion=abc');
        expect(r.status).toBe(400);
      });
    });

    describe('§4.5 get table', () => {
      it('rv unset → Most Recent', async () => {
        await api.request('PUT', `${base}/a`, {
          body: { metadata: { name: 'a', labels: { tier: 'web' } }, data: { v: '2' } },
        });
        const r = await api.request('GET', `${base}/a`);
        expect(r.status).toBe(200);
        expect((r.json as { data: { v: string } }).data.v).toBe('2');
      });
      it('rv=0 → Any', async () => {
        const r = await api.request('GET', `${base}/b?resourceVersion=0`);
        expect(r.status).toBe(200);
        expect((r.json as { metadata: { name: string } }).metadata.name).toBe('b');
      });
      it('rv=non-zero → Not older than', async () => {
        const r = await api.request('GET', `${base}/b?resourceVersion=${rvAfter.c}`);
        expect(r.status).toBe(200);
        expect((r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(
          String(rvAfter.b),
        );
      });
      it('rv=non-zero the store has not reached → 504 with Retry-After', async () => {
        const r = await api.request('GET', `${base}/b?resourceVersion=${(await current()) + 50}`);
        expect(r.status).toBe(504);
        expect(r.headers['retry-after']).toBe('1');
        expect((r.json as StatusBody).message).toContain('Too large resource version');
      });
      it('a missing object is still 404 under every rule', async () => {
        for (const q of ['', '?resourceVersion=0', `?resourceVersion=${rvAfter.a}`]) {
          expect((await api.request('GET', `${base}/nope${q}`)).status).toBe(404);
        }
      });
    });

    describe('§4.7 chunked lists: tokens and remainingItemCount', () => {
      it('a forged or corrupted continue token → 400', async () => {
        const first = await list('limit=2');
        const tok = first.body.metadata.continue as string;
        const forged = `${tok.slice(0, 5)}${tok[5] === 'A' ? 'B' : 'A'}${tok.slice(6)}`;
        for (const bad of [
          forged,
          'not-a-token',
          Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"a"}').toString('base64'),
        ]) {
          const r = await list(`limit=2&continue=${encodeURIComponent(bad)}`);
          expect(r.status, bad).toBe(400);
          expect(r.body.message).toMatch(/^invalid continue token/);
        }
      });
      it('a token from another collection → 400', async () => {
        const other = await api.request('GET', '/api/v1/namespaces?limit=1');
        const tok = (other.json as List).metadata.continue as string;
        expect(tok).toBeTruthy();
        const r = await list(`limit=2&continue=${encodeURIComponent(tok)}`);
        expect(r.status).toBe(400);
      });
      it('remainingItemCount is omitted with a selector', async () => {
        const r = await list('limit=2&labelSelector=tier%3Dweb');
        expect(names(r.body)).toEqual(['a', 'b']);
        expect(r.body.metadata.continue).toBeTruthy();
        expect(r.body.metadata.remainingItemCount).toBeUndefined();
      });
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
