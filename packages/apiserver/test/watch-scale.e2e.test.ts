import { Agent, get, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { openWatch, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { flavorNames } from './helpers/flavors.js';

/**
 * Watch sockets at scale (issue 18 item 5), under both flavors: a thousand concurrent watches add no
 * listener to a shared emitter (no MaxListenersExceededWarning) and each gets the change; a watch
 * whose client pauses is closed once its socket buffer passes the limit instead of buffering without
 * end, and the client resumes from the last resourceVersion it read without losing or repeating an
 * event.
 */

const cms = '/api/v1/namespaces/default/configmaps';

let api: TestServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** Collects the process warnings emitted while `fn` runs (and a turn after it). */
async function warningsDuring(fn: () => Promise<void>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on('warning', onWarning);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

/** A raw watch connection: everything the server sent so far, and whether it closed. */
function rawWatch(url: string, path: string): { socket: Socket; text: () => string; closed: () => boolean } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => {
    text += d;
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
  return { socket, text: () => text, closed: () => closed };
}

describe.each(flavorNames)('watch sockets at scale (%s flavor)', (flavor) => {
  it('1,000 concurrent watches each get a change, add no shared listener, and end with the server', async () => {
    const watches: ReturnType<typeof rawWatch>[] = [];
    const warnings = await warningsDuring(async () => {
      const s = await startTestServer({ flavor, insecureHttp: true });
      api = s;
      for (let i = 0; i < 1000; i++) watches.push(rawWatch(s.url, `${cms}?watch=1&allowWatchBookmarks=true`));
      await waitFor(
        'every watch to be open',
        () => watches.every((w) => w.text().startsWith('HTTP/1.1 200')),
        60_000,
      );
      const created = await s.request('POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fan-out' } },
      });
      expect(created.status).toBe(201);
      await waitFor(
        'every watch to get the ADDED event',
        () => watches.every((w) => w.text().includes('"name":"fan-out"')),
        60_000,
      );
      await s.stop();
      api = undefined;
      await waitFor('every watch to be closed', () => watches.every((w) => w.closed()), 60_000);
    });
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    for (const w of watches) w.socket.destroy();
  }, 180_000);

  it('a paused reader is closed past the buffer limit and resumes from its last resourceVersion', async () => {
    const s = await startTestServer({
      flavor,
      insecureHttp: true,
      server: { maxWatchBufferBytes: 256 * 1024 },
    });
    api = s;
    const start = await s.request('GET', cms);
    const from = (start.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const agent = new Agent({ keepAlive: false });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${s.url}${cms}?watch=1&resourceVersion=${from}`, { agent }, resolve).on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    res.pause(); // reads nothing: the kernel's buffers fill, then the server's
    // Far more than the kernel's socket buffers absorb on loopback (a few MB).
    const count = 120;
    const big = 'x'.repeat(256 * 1024);
    for (let i = 0; i < count; i++) {
      const r = await s.request('POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `w${i}` }, data: { a: big } },
      });
      expect(r.status).toBe(201);
    }
    // The server ends the stream on its own: reading now drains what it had queued, then the end.
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      body += c;
    });
    const ended = await new Promise<boolean>((resolve) => {
      res.on('end', () => resolve(true));
      res.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 30_000);
      res.resume();
    });
    expect(ended).toBe(true);
    agent.destroy();
    const first = body
      .split('\n')
      .filter((l) => l !== '')
      .map(
        (l) =>
          JSON.parse(l) as { type: string; object: { metadata: { name: string; resourceVersion: string } } },
      );
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(count);
    const last = first[first.length - 1]?.object.metadata.resourceVersion as string;
    const resumed = await openWatch(s, cms, { resourceVersion: last });
    const rest = await resumed.until(count - first.length, 30_000);
    resumed.close();
    const names = [...first, ...rest].map((e) => e.object.metadata.name);
    expect(names).toEqual(Array.from({ length: count }, (_, i) => `w${i}`));
    expect([...first, ...rest].every((e) => e.type === 'ADDED')).toBe(true);
  }, 180_000);
});
