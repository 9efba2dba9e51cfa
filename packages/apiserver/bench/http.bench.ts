/**
 * HTTP throughput and latency of the reference server on the memory store: create, get and list
 * of config maps through real HTTP (undici pool, 16 connections), server and load generator in
 * one process. Baseline, same run, same load generator: a bare `node:http` server answering a
 * pre-serialized ConfigMap, i.e. the cost of HTTP alone. Also: `startTestServer()` start time.
 *
 * Run: `pnpm bench apiserver` (or `node --import tsx packages/apiserver/bench/http.bench.ts`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@orchard/testing';
import { Pool } from 'undici';
import { createApiServer } from '../src/index.js';

const connections = 16;
const requestsPerRun = Number(process.env.BENCH_REQUESTS ?? 20_000);

interface Result {
  name: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function load(
  name: string,
  url: string,
  total: number,
  make: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
  expect: number,
): Promise<Result> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const latencies: number[] = new Array(total);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const r = make(i);
      const t0 = performance.now();
      const res = await pool.request({
        method: r.method,
        path: r.path,
        headers: r.body ? { 'content-type': 'application/json' } : {},
        ...(r.body ? { body: r.body } : {}),
      });
      await res.body.arrayBuffer();
      latencies[i] = performance.now() - t0;
      if (res.statusCode !== expect)
        throw new Error(`${name}: ${r.method} ${r.path} answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { name, requests: total, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function row(r: Result, baseline?: Result): string {
  const rps = r.requests / r.seconds;
  const ratio = baseline
    ? ` (${((rps / (baseline.requests / baseline.seconds)) * 100).toFixed(0)}% of baseline)`
    : '';
  return `${r.name.padEnd(34)} ${rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms${ratio}`;
}

async function main(): Promise<void> {
  // Baseline: HTTP alone.
  const cm = JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'c',
      namespace: 'bench',
      uid: 'x',
      resourceVersion: '1',
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    data: { a: 'b' },
  });
  const bare = createServer((_req, res) => {
    _req.resume();
    _req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(cm) });
      res.end(cm);
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const api = createApiServer();
  const { url } = await api.listen(0);
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } };
  const pool = new Pool(url, { connections: 1 });
  const post = async (path: string, body: unknown) => {
    const r = await pool.request({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await r.body.arrayBuffer();
  };
  await post('/api/v1/namespaces', ns);
  await post('/api/v1/namespaces', { ...ns, metadata: { name: 'bench-list' } });
  for (let i = 0; i < 100; i++)
    await post('/api/v1/namespaces/bench-list/configmaps', {
      metadata: { name: `cm-${i}` },
      data: { k: 'v'.repeat(64) },
    });
  await post('/api/v1/namespaces/bench/configmaps', { metadata: { name: 'c' }, data: { a: 'b' } });
  await pool.close();

  // Warm-up (JIT) for both servers.
  await load('warm-up', bareUrl, 2000, () => ({ method: 'GET', path: '/' }), 200);
  await load(
    'warm-up',
    url,
    2000,
    () => ({ method: 'GET', path: '/api/v1/namespaces/bench/configmaps/c' }),
    200,
  );

  const baseline = await load(
    'baseline: bare node:http GET',
    bareUrl,
    requestsPerRun,
    () => ({ method: 'GET', path: '/' }),
    200,
  );
  const get = await load(
    'get configmap',
    url,
    requestsPerRun,
    () => ({ method: 'GET', path: '/api/v1/namespaces/bench/configmaps/c' }),
    200,
  );
  const create = await load(
    'create configmap',
    url,
    requestsPerRun,
    (i) => ({
      method: 'POST',
      path: '/api/v1/namespaces/bench/configmaps',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `n-${i}` },
        data: { a: 'b' },
      }),
    }),
    201,
  );
  const list = await load(
    'list 100 configmaps',
    url,
    Math.max(1000, requestsPerRun / 10),
    () => ({ method: 'GET', path: '/api/v1/namespaces/bench-list/configmaps' }),
    200,
  );
  await api.close();
  await new Promise<void>((r) => bare.close(() => r()));

  console.log(`HTTP/1.1 on 127.0.0.1, ${connections} connections, memory store, Node ${process.version}`);
  console.log(row(baseline));
  console.log(row(get, baseline));
  console.log(row(create, baseline));
  console.log(row(list, baseline));

  // startTestServer: the first start generates the CA and certificates; later starts reuse them.
  let t0 = performance.now();
  const first = await startTestServer();
  const firstMs = performance.now() - t0;
  await first.stop();
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    t0 = performance.now();
    const s = await startTestServer();
    times.push(performance.now() - t0);
    await s.stop();
  }
  times.sort((a, b) => a - b);
  console.log(
    `startTestServer (HTTPS): first ${firstMs.toFixed(1)} ms, then p50 ${percentile(times, 50).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms over ${times.length} starts`,
  );
}

await main();
