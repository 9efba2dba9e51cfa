/**
 * What `/metrics` costs a GET: two servers in one process, one with `metrics: true` (the default:
 * request counter, duration histogram, storage histogram), one with `metrics: false`, loaded in
 * alternating rounds by the same undici pool settings so machine noise hits both alike. Reports the
 * median throughput of each and, steadier on a shared machine, the median process CPU time per
 * request (server and load generator together; the generator's share is the same for both), and
 * the differences (target: under 5%).
 *
 * Run: `pnpm bench apiserver/metrics-overhead` (or `node --import tsx
 * packages/apiserver/bench/metrics-overhead.bench.ts`; BENCH_REQUESTS, BENCH_ROUNDS to change the size).
 */
import { performance } from 'node:perf_hooks';
import { createMemoryStore } from '@orchard/store';
import { Pool } from 'undici';
import type { FilterContext } from '../src/filters/filter.js';
import { createApiServer } from '../src/index.js';
import { recordRequest } from '../src/metrics/request-metrics.js';
import { createServerMetrics } from '../src/metrics/server-metrics.js';
import { instrumentStore } from '../src/metrics/storage-metrics.js';

const connections = 16;
const requests = Number(process.env.BENCH_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const path = '/api/v1/namespaces/bench/configmaps/c';

interface Round {
  rps: number;
  /** Process CPU microseconds (user + system) per request. */
  cpuUs: number;
}

async function round(url: string, total: number): Promise<Round> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    while (next++ < total) {
      const res = await pool.request({ method: 'GET', path });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const rps = total / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  await pool.close();
  return { rps, cpuUs: (cpu.user + cpu.system) / total };
}

async function start(metrics: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  // BENCH_WRAP_OFF=1: the server without metrics still gets the timed store wrapper (its timings
  // go nowhere), so the difference is the request metrics alone.
  const wrapped =
    !metrics && process.env.BENCH_WRAP_OFF === '1'
      ? {
          store: instrumentStore(
            createMemoryStore(),
            createServerMetrics({ currentVersion: '1.32', warn: () => {} }),
          ),
        }
      : {};
  const api = createApiServer({ metrics, ...wrapped });
  const { url } = await api.listen(0);
  const post = async (p: string, body: unknown) => {
    const r = await fetch(`${url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status !== 201) throw new Error(`POST ${p}: ${r.status}`);
  };
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  await post('/api/v1/namespaces/bench/configmaps', { metadata: { name: 'c' }, data: { a: 'b' } });
  return { url, close: () => api.close() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

// BENCH_AA=1: both servers without metrics, to see the noise and any bias of the method itself.
// BENCH_FIRST=on creates the metrics server first (default: the one without), to check the
// creation order does not favour one.
const first = process.env.BENCH_FIRST === 'on';
const off = first ? undefined : await start(false);
const on = await start(process.env.BENCH_AA !== '1');
const offServer = off ?? (await start(false));
await round(on.url, 2000);
await round(offServer.url, 2000);
const onRounds: Round[] = [];
const offRounds: Round[] = [];
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first so drift in machine load does not favour one.
  if (i % 2 === 0) {
    onRounds.push(await round(on.url, requests));
    offRounds.push(await round(offServer.url, requests));
  } else {
    offRounds.push(await round(offServer.url, requests));
    onRounds.push(await round(on.url, requests));
  }
}
await on.close();
await offServer.close();
const rps = (rs: Round[]) => rs.map((r) => r.rps);
const cpu = (rs: Round[]) => rs.map((r) => r.cpuUs);
const [rpsOn, rpsOff] = [median(rps(onRounds)), median(rps(offRounds))];
const [cpuOn, cpuOff] = [median(cpu(onRounds)), median(cpu(offRounds))];
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
console.log(
  `GET configmap, ${connections} connections, ${rounds} rounds × ${requests}, Node ${process.version}`,
);
console.log(
  `metrics off: ${rpsOff.toFixed(0)} req/s (rounds ${list(rps(offRounds))}), CPU ${cpuOff.toFixed(1)} µs/request (rounds ${list(cpu(offRounds))})`,
);
console.log(
  `metrics on:  ${rpsOn.toFixed(0)} req/s (rounds ${list(rps(onRounds))}), CPU ${cpuOn.toFixed(1)} µs/request (rounds ${list(cpu(onRounds))})`,
);
console.log(
  `difference: throughput ${(((rpsOff - rpsOn) / rpsOff) * 100).toFixed(1)}% lower, CPU per request ${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)}% higher with metrics on`,
);
// Each pair of rounds ran back to back under about the same machine load: the median of the
// per-pair ratios is steadier than the ratio of the medians.
const pairRatios = onRounds.map((r, i) => r.cpuUs / (offRounds[i] as Round).cpuUs);
const rpsRatios = onRounds.map((r, i) => r.rps / (offRounds[i] as Round).rps);
const pct = (x: number) => `${((x - 1) * 100).toFixed(1)}%`;
const spread = (xs: number[]) =>
  `min ${pct(Math.min(...xs))} / median ${pct(median(xs))} / max ${pct(Math.max(...xs))}`;
console.log(
  `paired: CPU per request on/off, median over ${rounds} pairs: ${((median(pairRatios) - 1) * 100).toFixed(1)}% higher with metrics on`,
);
console.log(`paired CPU per request, on vs off: ${spread(pairRatios)}`);
console.log(`paired throughput, on vs off: ${spread(rpsRatios)}`);

// The added work itself, without HTTP: what recordRequest costs per request (CPU time of a tight loop).
const m = createServerMetrics({ currentVersion: '1.32', warn: () => {} });
const ctx = {
  info: {
    isResourceRequest: true,
    verb: 'get',
    name: 'c',
    namespace: 'bench',
    apiVersion: 'v1',
    subresource: '',
  },
  req: { method: 'GET', headers: {} },
  url: new URL(`http://127.0.0.1${path}`),
  searchParams: new URLSearchParams(),
  def: { group: '', resource: 'configmaps', subresources: [] },
} as unknown as FilterContext;
const calls = 500_000;
for (let i = 0; i < 50_000; i++) recordRequest(m, ctx, 200, performance.now());
const c0 = process.cpuUsage();
for (let i = 0; i < calls; i++) recordRequest(m, ctx, 200, performance.now());
const c = process.cpuUsage(c0);
const per = (c.user + c.system) / calls;
console.log(
  `recordRequest alone: ${per.toFixed(2)} µs per request (${((per / cpuOff) * 100).toFixed(2)}% of the CPU per GET above)`,
);
