import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ApiServerOptions } from '@orchard/apiserver';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMaxInFlight } from '../src/filters/max-in-flight.js';
import { launchApiServer } from '../src/launch.js';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';

/**
 * Each request limit of issue 12, reached and answered as upstream does: in-flight limits (429 +
 * Retry-After), the request timeout (504), header and body read timeouts (408), an announced body
 * over the limit (413 before reading), watches per user (429), insecure HTTP only on loopback, a
 * client that disconnects (no error logged) and a watch client that stops reading (closed, not
 * buffered). Servers run over plain HTTP as a non-admin user, since `system:masters` is exempt.
 */

const user = { username: 'alice', groups: ['system:authenticated'] };
const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

let api: TestServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

async function start(server: Partial<ApiServerOptions>): Promise<TestServer> {
  api = await startTestServer({
    flavor: 'kubernetes',
    insecureHttp: true,
    // These tests are about limits, not authorization: alice may do anything.
    server: { insecureUser: user, authorizationModes: ['AlwaysAllow'], ...server },
  });
  return api;
}

/** A write step that holds creates until `release()`, so requests stay in flight as long as a test needs. */
function holdCreates(s: TestServer) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  s.server.writePipeline.insertBefore('field-manager', {
    name: 'hold',
    operations: ['create'],
    run: () => gate,
  });
  return () => release();
}

/** A raw HTTP/1.1 exchange: writes `parts` with pauses, returns what the server sent until it closed. */
function raw(
  url: string,
  parts: (string | number)[],
  timeoutMs = 10_000,
): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, timeoutMs);
    socket.on('data', (d) => {
      text += d.toString();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', () => {});
    socket.on('connect', async () => {
      for (const p of parts) {
        if (typeof p === 'number') await new Promise((r) => setTimeout(r, p));
        else if (!socket.destroyed) socket.write(p);
      }
    });
  });
}

describe('in-flight limits', () => {
  it('answers a mutating request over --max-mutating-requests-inflight with 429 and Retry-After, reads still pass', async () => {
    const s = await start({ maxMutatingRequestsInflight: 2, maxRequestsInflight: 100 });
    const release = holdCreates(s);
    const held = [s.request('POST', cms, { body: cm('a') }), s.request('POST', cms, { body: cm('b') })];
    await new Promise((r) => setTimeout(r, 100));
    const third = await s.request('POST', cms, { body: cm('c') });
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.json).toMatchObject({
      kind: 'Status',
      reason: 'TooManyRequests',
      code: 429,
      details: { retryAfterSeconds: 1 },
    });
    expect((await s.request('GET', cms)).status).toBe(200);
    expect((await s.request('GET', '/livez')).status).toBe(200);
    release();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([201, 201]);
    // The slots were given back.
    expect((await s.request('POST', cms, { body: cm('c') })).status).toBe(201);
  });

  it('counts non-mutating and mutating requests apart, exempts system:masters, and 0 means no limit', () => {
    const limit = createMaxInFlight(1, 1);
    const leaveRead = limit.enter(false, user);
    expect(() => limit.enter(false, user)).toThrow(expect.objectContaining({ code: 429 }));
    const leaveWrite = limit.enter(true, user);
    expect(() => limit.enter(true, user)).toThrow(/Too many requests/);
    const leaveMaster = limit.enter(false, { username: 'admin', groups: ['system:masters'] });
    leaveRead();
    leaveRead(); // idempotent: a slot is returned once
    expect(() => limit.enter(false, user)).not.toThrow();
    expect(() => limit.enter(false, user)).toThrow();
    leaveWrite();
    leaveMaster();
    const unlimited = createMaxInFlight(0, 0);
    for (let i = 0; i < 1000; i++) unlimited.enter(true, user);
  });
});

describe('request timeout', () => {
  it('answers 504 when a request runs past --request-timeout; ?timeout= may shorten it', async () => {
    const s = await start({ requestTimeoutMs: 300 });
    const release = holdCreates(s);
    const slow = await s.request('POST', cms, { body: cm('slow') });
    expect(slow.status).toBe(504);
    expect(slow.json).toMatchObject({
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    });
    release();
    expect((await s.request('GET', '/livez')).status).toBe(200);
  });

  it('a request-level ?timeout= shortens the server limit but cannot extend it', async () => {
    const s = await start({ requestTimeoutMs: 60_000 });
    const release = holdCreates(s);
    const r = await s.request('POST', `${cms}?timeout=200ms`, { body: cm('short') });
    expect(r.status).toBe(504);
    release();
  });

  it('does not time out watches', async () => {
    const s = await start({ requestTimeoutMs: 200 });
    const res = await raw(s.url, [`GET ${cms}?watch=1&timeoutSeconds=1 HTTP/1.1\r\nHost: x\r\n\r\n`], 5000);
    expect(res.text).toMatch(/^HTTP\/1\.1 200/);
    expect(res.text).not.toContain('504');
  });
});

describe('read timeouts', () => {
  it('answers 408 to a client that sends its headers too slowly (slowloris)', async () => {
    const s = await start({ requestHeaderTimeoutMs: 300 });
    const res = await raw(s.url, [
      'GET /api/v1/namespaces HTTP/1.1\r\n',
      200,
      'X-A: 1\r\n',
      400,
      'X-B: 2\r\n',
      800,
      'X-C: 3\r\n',
    ]);
    expect(res.closed).toBe(true);
    expect(res.text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(res.text).toContain('"reason":"Timeout"');
  });

  it('answers 408 to a client that does not finish its body in time', async () => {
    const s = await start({ requestTimeoutMs: 500, requestHeaderTimeoutMs: 300 });
    const res = await raw(s.url, [
      `POST ${cms} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"apiVersion":`,
    ]);
    expect(res.closed).toBe(true);
    expect(res.text).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('body size', () => {
  it('refuses an announced 10 GiB body with 413 before reading it, and closes the connection', async () => {
    const s = await start({});
    const res = await raw(s.url, [
      `POST ${cms} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n{"a":`,
    ]);
    expect(res.closed).toBe(true);
    expect(res.text).toMatch(/^HTTP\/1\.1 413/);
    expect(res.text).toContain('"reason":"RequestEntityTooLarge"');
    expect(res.text.toLowerCase()).toContain('connection: close');
  });
});

describe('watches per user', () => {
  it('answers the watch over --max-watches-per-user with 429, and counts a closed watch out', async () => {
    const s = await start({ maxWatchesPerUser: 2 });
    const open = (n: number) =>
      raw(s.url, [`GET ${cms}?watch=1&timeoutSeconds=${n} HTTP/1.1\r\nHost: x\r\n\r\n`], 4000);
    const first = open(1);
    const second = open(3);
    await new Promise((r) => setTimeout(r, 300));
    const third = await s.request('GET', `${cms}?watch=1&timeoutSeconds=1`);
    expect(third.status).toBe(429);
    expect(third.text).toContain('too many open watches for user \\"alice\\": at most 2');
    await first; // ended by its timeoutSeconds
    await new Promise((r) => setTimeout(r, 100));
    const fourth = await s.request('GET', `${cms}?watch=1&timeoutSeconds=1`);
    expect(fourth.status).toBe(200);
    await second;
  });
});

describe('insecure HTTP', () => {
  it('is refused on a non-loopback address, by the launcher and by the CLI', async () => {
    await expect(launchApiServer({ insecureHttp: true, host: '0.0.0.0' })).rejects.toThrow(
      /refused on the non-loopback address 0\.0\.0\.0/,
    );
    const bin = join(import.meta.dirname, '..', 'bin', 'orchard-apiserver.mjs');
    const cli = spawnSync(process.execPath, [bin, '--insecure-http', '--host', '0.0.0.0', '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain('--insecure-http serves every request as the admin and is refused');
  });
});

describe('clients that go away or stop reading', () => {
  it('a client that disconnects mid-body is not logged as a server error', async () => {
    const logged: string[] = [];
    const s = await start({ logger: { info: () => {}, error: (m: string) => logged.push(m) } });
    await raw(
      s.url,
      [
        `POST ${cms} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
      ],
      300,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(logged).toEqual([]);
    expect((await s.request('GET', '/livez')).status).toBe(200);
  });

  it('a watch whose client stops reading is closed once its buffer is full, without a listener per event', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const s = await start({ maxWatchBufferBytes: 256 * 1024 });
      const { hostname, port } = new URL(s.url);
      const socket = connect(Number(port), hostname);
      await new Promise((r) => socket.once('connect', r));
      socket.write(`GET ${cms}?watch=1 HTTP/1.1\r\nHost: x\r\n\r\n`);
      socket.pause(); // never reads
      // Far more than the kernel's socket buffers absorb (a few MB on loopback).
      const big = 'x'.repeat(256 * 1024);
      for (let i = 0; i < 120; i++) {
        const r = await s.request('POST', cms, { body: { ...cm(`w${i}`), data: { a: big } } });
        expect(r.status).toBe(201);
      }
      const ended = new Promise<boolean>((resolve) => {
        socket.on('end', () => resolve(true));
        socket.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 5000);
      });
      socket.resume();
      socket.on('data', () => {});
      expect(await ended).toBe(true);
      socket.destroy();
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('50 open watches add no listener to a shared emitter, and closing the server ends them all', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const s = await start({});
      // Watches the server holds on ConfigMaps (its own controllers' included), from /metrics.
      const registered = async () =>
        sampleValue(
          parsePrometheusText((await s.request('GET', '/metrics')).text),
          'apiserver_registered_watchers',
          {
            group: '',
            version: 'v1',
            kind: 'ConfigMap',
          },
        ) ?? 0;
      const before = await registered();
      const watches = Array.from({ length: 50 }, () =>
        raw(s.url, [`GET ${cms}?watch=1 HTTP/1.1\r\nHost: x\r\n\r\n`], 10_000),
      );
      // Every watch held before the server closes (an event, not a fixed pause: a loaded machine is slow).
      await vi.waitFor(async () => expect(await registered()).toBe(before + 50), {
        timeout: 20_000,
        interval: 50,
      });
      await s.stop();
      api = undefined;
      const ended = await Promise.all(watches);
      expect(ended.every((w) => w.closed && w.text.startsWith('HTTP/1.1 200'))).toBe(true);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
