import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('watch over HTTP (orch flavor)', () => {
  let api: TestServer;
  const base = '/api/v1/namespaces/w/configmaps';
  const create = (name: string, labels: Record<string, string> = {}) =>
    api.request('POST', base, { body: { metadata: { name, labels } } });

  beforeAll(async () => {
    api = await startTestServer({ insecureHttp: true });
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'w' } } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('flushes headers at once and streams changes after a resourceVersion', async () => {
    await create('a');
    const list = (await api.request('GET', base)).json as { metadata: { resourceVersion: string } };
    const w = await openWatch(api, `${base}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    try {
      // Headers arrived before any event.
      expect(w.status).toBe(200);
      expect(w.headers['content-type']).toBe('application/json');
      expect(w.headers['transfer-encoding']).toBe('chunked');
      expect(w.events).toHaveLength(0);
      await create('b');
      const b = (await api.request('GET', `${base}/b`)).json as { metadata: { resourceVersion: string } };
      await api.request('PATCH', `${base}/b`, {
        body: '{"data":{"x":"1"}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await api.request('DELETE', `${base}/b`);
      await w.until(3);
      expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        'ADDED b',
        'MODIFIED b',
        'DELETED b',
      ]);
      expect(w.events[0]?.object.metadata.resourceVersion).toBe(b.metadata.resourceVersion);
      const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
      expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    } finally {
      w.close();
    }
  });

  it('starts with synthetic ADDED events without a resourceVersion (and with 0)', async () => {
    for (const q of ['watch=1', 'watch=1&resourceVersion=0']) {
      const w = await openWatch(api, `${base}?${q}`);
      try {
        await w.until(1);
        expect(w.events.every((e) => e.type === 'ADDED')).toBe(true);
        expect(w.events.map((e) => e.object.metadata.name)).toContain('a');
      } finally {
        w.close();
      }
    }
  });

  it('applies label selectors to transitions (leaving the selection is DELETED)', async () => {
    const rv = ((await api.request('GET', base)).json as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const w = await openWatch(api, `${base}?watch=1&resourceVersion=${rv}&labelSelector=team%3Dred`);
    try {
      await create('sel', { team: 'blue' });
      await api.request('PATCH', `${base}/sel`, {
        body: '{"metadata":{"labels":{"team":"red"}}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await api.request('PATCH', `${base}/sel`, {
        body: '{"data":{"k":"v"}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await api.request('PATCH', `${base}/sel`, {
        body: '{"metadata":{"labels":{"team":"blue"}}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await w.until(3);
      expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    } finally {
      w.close();
    }
  });

  it('watches a single object by name (GET on the item with watch)', async () => {
    const w = await openWatch(api, `${base}/a?watch=true`);
    try {
      await w.until(1);
      await create('other');
      await api.request('PATCH', `${base}/a`, {
        body: '{"data":{"n":"1"}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await w.until(2);
      expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'MODIFIED a']);
    } finally {
      w.close();
    }
  });

  it('sends the initial-events-end bookmark with sendInitialEvents', async () => {
    const w = await openWatch(
      api,
      `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    try {
      for (let i = 0; i < 200 && !w.events.some((e) => e.type === 'BOOKMARK'); i++)
        await new Promise((r) => setTimeout(r, 10));
      const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
      expect(bookmark?.object.metadata.annotations).toEqual({ 'orch.io/initial-events-end': 'true' });
      expect(w.events.slice(0, -1).every((e) => e.type === 'ADDED')).toBe(true);
    } finally {
      w.close();
    }
  });

  it('ends at timeoutSeconds', async () => {
    const w = await openWatch(api, `${base}?watch=1&resourceVersion=1&timeoutSeconds=0`);
    await w.ended;
    expect(w.complete).toBe(true);
  });

  it('answers 410 Expired for a compacted resourceVersion', async () => {
    const current = await api.server.storage.currentRevision();
    await api.server.storage.compact(current);
    const r = await api.request('GET', `${base}?watch=1&resourceVersion=1`);
    expect(r.status).toBe(410);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect((r.json as { message: string }).message).toContain('too old resource version');
  });

  it('ends open watches when the server stops', async () => {
    const other = await startTestServer({ insecureHttp: true });
    const w = await openWatch(other, `/api/v1/namespaces?watch=1`);
    await w.until(1);
    await other.stop();
    await w.ended;
  });
});
