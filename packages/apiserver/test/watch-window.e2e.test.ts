import { request } from 'node:http';
import { isClientError } from '@orchard/client';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The watch window by time (the `--watch-window` setting) and a watcher that does not read its
 * stream: it is closed without stalling anyone, and what it received is a valid resume point.
 */
const NS = 'win';
const base = `/api/v1/namespaces/${NS}/configmaps`;

describe('watch window by time', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ insecureHttp: true, server: { watchCache: { windowMs: 200 } } });
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('a version whose events aged out of the window gets 410; a recent one still watches', async () => {
    const before = (await api.request('GET', base)).json as { metadata: { resourceVersion: string } };
    await api.request('POST', base, { body: { metadata: { name: 'old' } } });
    await new Promise((r) => setTimeout(r, 300)); // let "old" age past the 200 ms window
    const recent = (await api.request('POST', base, { body: { metadata: { name: 'new' } } })).json as {
      metadata: { resourceVersion: string };
    };
    const err = await openWatch(api, base, {
      resourceVersion: before.metadata.resourceVersion,
    }).catch((e: unknown) => e);
    if (!isClientError(err)) throw new Error('expected a 410');
    expect(err.status).toBe(410);
    const w = await openWatch(api, base, {
      resourceVersion: recent.metadata.resourceVersion,
    });
    await api.request('POST', base, { body: { metadata: { name: 'newer' } } });
    await w.until(1);
    expect(w.events[0]?.object.metadata?.name).toBe('newer');
    w.close();
  });
});

describe('bookmark before the deadline (no periodic bookmarks)', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ insecureHttp: true, server: { watchCache: { bookmarkIntervalMs: 0 } } });
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('sends exactly one BOOKMARK, about a second before timeoutSeconds ends the watch', async () => {
    const rv = ((await api.request('GET', base)).json as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const w = await openWatch(api, base, {
      resourceVersion: rv,
      allowWatchBookmarks: 'true',
      timeoutSeconds: '2',
    });
    await w.ended;
    expect(w.events.map((e) => e.type)).toEqual(['BOOKMARK']);
    expect(Number(w.events[0]?.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
  });
});

describe('a watcher that does not read', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({
      insecureHttp: true,
      server: { watchCache: { maxWatchBufferBytes: 64 * 1024 } },
    });
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('is closed once its socket buffer passes the limit, without stalling a reading watcher', async () => {
    const rv = ((await api.request('GET', base)).json as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const url = new URL(`${base}?watch=1&resourceVersion=${rv}`, api.url);
    // The stuck client: reads headers, then never reads the body.
    let stuckEnded = false;
    let stuckBody = '';
    const stuck = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(url, (res) => resolve(res));
      req.on('error', reject);
      req.end();
    });
    stuck.pause();
    stuck.on('end', () => {
      stuckEnded = true;
    });
    const reader = await openWatch(api, base, { resourceVersion: rv });
    const big = 'x'.repeat(120 * 1024);
    const N = 150;
    for (let i = 0; i < N; i++) {
      await api.request('POST', base, { body: { metadata: { name: `big-${i}` }, data: { v: big } } });
    }
    await reader.until(N);
    expect(reader.events.map((e) => e.object.metadata?.name)).toEqual(
      Array.from({ length: N }, (_, i) => `big-${i}`),
    );
    reader.close();
    // Now drain the stuck client: it got a prefix of the events, then the server ended its stream.
    stuck.setEncoding('utf8');
    stuck.on('data', (c: string) => {
      stuckBody += c;
    });
    stuck.resume();
    for (let i = 0; i < 500 && !stuckEnded; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stuckEnded).toBe(true);
    const got = stuckBody
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) =>
          (JSON.parse(l) as { object: { metadata: { name: string; resourceVersion: string } } }).object
            .metadata,
      );
    expect(got.length).toBeLessThan(N);
    expect(got.map((m) => m.name)).toEqual(Array.from({ length: got.length }, (_, i) => `big-${i}`));
    // Its last version is a valid resume point: a new watch from it continues exactly where it stopped.
    const last = got.at(-1)?.resourceVersion ?? rv;
    const resumed = await openWatch(api, base, { resourceVersion: last });
    await resumed.until(N - got.length);
    expect(resumed.events[0]?.object.metadata?.name).toBe(`big-${got.length}`);
    resumed.close();
  });
});
