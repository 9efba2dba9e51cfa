import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, type Store } from '@orchard/store';
import { createSqliteStore } from '@orchard/store-sqlite';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Concurrency through the whole API path, per storage backend: optimistic concurrency makes N
 * clients × M read-modify-write increments end at exactly N×M, and a watch under concurrent write
 * load sees every write exactly once, in resourceVersion order. Durable backends join the table as
 * they land.
 */
const dir = mkdtempSync(join(tmpdir(), 'orchard-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const backends: [name: string, makeStore: () => Store][] = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ path: join(dir, 'concurrency.sqlite') })],
];

describe.each(backends)('concurrency (%s backend)', (_backend, makeStore) => {
  let api: TestServer;
  let store: Store;
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    store = makeStore();
    api = await startTestServer({ flavor: 'kubernetes', server: { store } });
  });
  afterAll(async () => {
    await api.stop();
    await store.close();
  });

  it('8 clients × 25 read-modify-write increments end at exactly 200', async () => {
    const clients = 8;
    const increments = 25;
    await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counter' }, data: { n: '0' } },
    });
    let conflicts = 0;
    const client = async () => {
      for (let done = 0; done < increments; ) {
        const cur = (await api.request('GET', `${cms}/counter`)).json as {
          metadata: { resourceVersion: string };
          data: { n: string };
        };
        const next = { ...cur, data: { n: String(Number(cur.data.n) + 1) } };
        const put = await api.request('PUT', `${cms}/counter`, { body: next });
        if (put.status === 200) done++;
        else {
          expect(put.status).toBe(409);
          expect(put.json).toMatchObject({ reason: 'Conflict' });
          conflicts++;
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    const final = (await api.request('GET', `${cms}/counter`)).json as { data: { n: string } };
    expect(Number(final.data.n)).toBe(clients * increments);
    // The test only means something if the clients really raced.
    expect(conflicts).toBeGreaterThan(0);
  });

  it('a watch under concurrent writes sees each write exactly once, in order', async () => {
    const start = (await api.request('GET', cms)).json as { metadata: { resourceVersion: string } };
    const url = new URL(`${cms}?watch=1&resourceVersion=${start.metadata.resourceVersion}`, api.url);
    const events: { type: string; object: { metadata: { name: string; resourceVersion: string } } }[] = [];
    const writers = 6;
    const perWriter = 40;
    const expected = writers * perWriter * 2; // a create and an update each
    const watching = new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        url,
        { ca: api.tls?.ca.cert, cert: api.tls?.admin.cert, key: api.tls?.admin.key },
        (res) => {
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            let nl = buffered.indexOf('\n');
            while (nl >= 0) {
              events.push(JSON.parse(buffered.slice(0, nl)));
              buffered = buffered.slice(nl + 1);
              nl = buffered.indexOf('\n');
            }
            if (events.length >= expected) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on('error', (e) => (events.length >= expected ? resolve() : reject(e)));
      req.end();
      setTimeout(() => reject(new Error(`only ${events.length} of ${expected} events`)), 20_000);
    });
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const name = `w${w}-${i}`;
          const created = await api.request('POST', cms, {
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } },
          });
          expect(created.status).toBe(201);
          const patched = await api.request('PATCH', `${cms}/${name}`, {
            body: { data: { v: '1' } },
            headers: { 'content-type': 'application/merge-patch+json' },
          });
          expect(patched.status).toBe(200);
        }
      }),
    );
    await watching;
    expect(events).toHaveLength(expected);
    const versions = events.map((e) => Number(e.object.metadata.resourceVersion));
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1] as number);
    const seen = new Map<string, string[]>();
    for (const e of events)
      seen.set(e.object.metadata.name, [...(seen.get(e.object.metadata.name) ?? []), e.type]);
    expect(seen.size).toBe(writers * perWriter);
    for (const types of seen.values()) expect(types).toEqual(['ADDED', 'MODIFIED']);
  });
});
