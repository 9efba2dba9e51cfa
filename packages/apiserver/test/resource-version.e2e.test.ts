import type { TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base,
  type List,
  listAt,
  names,
  type StatusBody,
  startSeededServer,
} from './helpers/resource-version.js';

/**
 * Spec doc 1 §4.5 (both tables), §4.7 chunked lists and §7 (410, 504) against the real HTTP server:
 * one test per cell. §4.7 token expiry and §4.6 watch are in resource-version-watch.e2e.test.ts.
 */

let api: TestServer;
/** Revisions after creating a, b, c, d, e (in that order). */
let rvAfter: Record<string, number>;
const list = (query: string) => listAt(api, query);
const current = (): Promise<number> => api.server.storage.currentRevision();

for (const flavor of ['orch', 'kubernetes'] as const) {
  describe(`resourceVersion semantics (${flavor} flavor)`, () => {
    beforeAll(async () => {
      ({ api, rvAfter } = await startSeededServer(flavor));
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
  });
}
