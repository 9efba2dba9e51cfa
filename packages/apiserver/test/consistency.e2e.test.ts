import { listPages } from '@orchard/client';
import type { ApiObject } from '@orchard/meta';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Spec doc 1 §4.7: while writers change objects, a chunked list (limit=7) shows ONE snapshot, and a
 * watch from its resourceVersion sees every later change exactly once, in order — replaying the
 * watch over the snapshot gives exactly what a fresh list shows.
 */
const NS = 'consistency';
const base = `/api/v1/namespaces/${NS}/configmaps`;
const WRITERS = 6;
const OPS = 40;

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ insecureHttp: true });
  await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  // A starting population, so the paged list spans many pages.
  for (let i = 0; i < 30; i++) {
    await api.request('POST', base, {
      body: { metadata: { name: `seed-${String(i).padStart(2, '0')}` }, data: { n: '0' } },
    });
  }
});
afterAll(async () => {
  await api.stop();
});

async function writer(id: number): Promise<void> {
  for (let i = 0; i < OPS; i++) {
    const name = `w${id}-${i % 5}`;
    const op = i % 3;
    if (op === 0) await api.request('POST', base, { body: { metadata: { name }, data: { n: String(i) } } });
    else if (op === 1)
      await api.request('PUT', `${base}/${name}`, { body: { metadata: { name }, data: { n: String(i) } } });
    else await api.request('DELETE', `${base}/${name}`);
    // Also touch the seeds, so pages already read keep changing under the pager.
    await api.request('PUT', `${base}/seed-${String((id * 7 + i) % 30).padStart(2, '0')}`, {
      body: {
        metadata: { name: `seed-${String((id * 7 + i) % 30).padStart(2, '0')}` },
        data: { n: `${id}-${i}` },
      },
    });
  }
}

describe('consistency under concurrent writers', () => {
  it('a paged list is one snapshot; a watch from it sees every later change once, in order', async () => {
    const client = api.client;
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));

    // Paged list (limit=7) while the writers run.
    const rvs = new Set<string>();
    const snapshot = new Map<string, ApiObject>();
    let pages = 0;
    for await (const page of listPages(client, base, { pageSize: 7 })) {
      pages++;
      rvs.add(page.metadata.resourceVersion as string);
      for (const item of page.items) snapshot.set(item.metadata?.name as string, item);
      await new Promise((r) => setTimeout(r, 5)); // let writers interleave between pages
    }
    expect(pages).toBeGreaterThan(3);
    expect(rvs.size).toBe(1);
    const rv = [...rvs][0] as string;

    // The pages together are exactly the collection at that version.
    const exact = (await api.request('GET', `${base}?resourceVersionMatch=Exact&resourceVersion=${rv}`))
      .json as {
      items: ApiObject[];
    };
    expect(new Map(exact.items.map((o) => [o.metadata?.name, o.metadata?.resourceVersion]))).toEqual(
      new Map([...snapshot.values()].map((o) => [o.metadata?.name, o.metadata?.resourceVersion])),
    );
    // No item is newer than the snapshot.
    for (const o of snapshot.values())
      expect(Number(o.metadata?.resourceVersion)).toBeLessThanOrEqual(Number(rv));

    const w = await openWatch(client, base, { resourceVersion: rv });
    await writers;
    const fresh = (await api.request('GET', base)).json as {
      metadata: { resourceVersion: string };
      items: ApiObject[];
    };
    const want = new Map(fresh.items.map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion]));
    const replay = () => {
      const state = new Map([...snapshot].map(([k, o]) => [k, o.metadata?.resourceVersion]));
      for (const ev of w.events) {
        const name = ev.object.metadata?.name as string;
        if (ev.type === 'DELETED') state.delete(name);
        else state.set(name, ev.object.metadata?.resourceVersion);
      }
      return state;
    };
    for (let i = 0; i < 500; i++) {
      const last = w.events.at(-1)?.object.metadata?.resourceVersion;
      if (last !== undefined && Number(last) >= Number(fresh.metadata.resourceVersion)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    w.close();
    expect(replay()).toEqual(want);
    // Exactly once, in order: strictly increasing revisions, each after the snapshot.
    const revs = w.events.map((e) => Number(e.object.metadata?.resourceVersion));
    expect(revs.length).toBeGreaterThan(0);
    expect(revs[0]).toBeGreaterThan(Number(rv));
    for (let i = 1; i < revs.length; i++) expect(revs[i]).toBeGreaterThan(revs[i - 1] as number);
    expect(w.events.every((e) => e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED')).toBe(
      true,
    );
  });
});
