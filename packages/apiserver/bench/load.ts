/**
 * A small closed-loop HTTP load generator for the benchmarks (undici pool, N connections, each
 * sending its next request when the last one is answered) and the table row formatting.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** One request of a load run. */
export interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly body?: string;
}

/** Throughput and latency of a load run. */
export interface LoadResult {
  readonly name: string;
  readonly requests: number;
  readonly seconds: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Server CPU µs per request, when measured. */
  readonly cpuMicrosPerRequest?: number;
}

/** The `p`th percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The median of the values (any order). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * Sends `total` requests over `connections` keep-alive connections (of `target`: a URL, for a pool
 * of its own, or a pool from `warmPool`); throws on an unexpected status.
 */
export async function loadTest(
  name: string,
  target: string | Pool,
  connections: number,
  total: number,
  make: (i: number) => RequestSpec,
  expect: number,
): Promise<LoadResult> {
  const pool = typeof target === 'string' ? new Pool(target, { connections, pipelining: 1 }) : target;
  const latencies: number[] = new Array(total);
  const started = performance.now();
  await drive(pool, connections, total, make, expect, name, latencies);
  const seconds = (performance.now() - started) / 1000;
  if (typeof target === 'string') await pool.close();
  latencies.sort((a, b) => a - b);
  return { name, requests: total, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * A pool of `connections` connections to `url`, each already used for `perConnection` requests
 * (not measured): a measured run then starts on open connections whose TCP buffers have grown, as a
 * long-running client's are, instead of counting 32 connection set-ups (for a 654 KB LIST, a cold
 * connection's first answers are several times slower) among its slowest requests.
 */
export async function warmPool(
  url: string,
  connections: number,
  make: (i: number) => RequestSpec,
  expect: number,
  perConnection = 3,
): Promise<Pool> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  await drive(pool, connections, connections * perConnection, make, expect, 'warm-up');
  return pool;
}

/** `total` requests from `connections` closed-loop workers; latencies (ms) into `latencies` when given. */
async function drive(
  pool: Pool,
  connections: number,
  total: number,
  make: (i: number) => RequestSpec,
  expect: number,
  name: string,
  latencies?: number[],
): Promise<void> {
  let next = 0;
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
      if (res.statusCode !== expect) {
        const body = await res.body.text();
        throw new Error(`${name}: ${r.method} ${r.path} answered ${res.statusCode}: ${body.slice(0, 300)}`);
      }
      // Read to the end without copying or decoding, by 'data' events rather than an async
      // iterator (a promise per chunk): the generator's own cost stays small.
      await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
      if (latencies) latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

const spread = (xs: number[], digits: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${(s[0] ?? 0).toFixed(digits)} / ${median(s).toFixed(digits)} / ${(s.at(-1) ?? 0).toFixed(digits)}`;
};

/**
 * One operation's rows: req/s, p50/p99 and server CPU µs per request of the reference server and
 * the bare server (min / median / max over the rounds), with the per-round ratios.
 */
export function formatRow(name: string, api: readonly LoadResult[], bare: readonly LoadResult[]): string {
  const rps = (r: LoadResult) => r.requests / r.seconds;
  const cpu = (r: LoadResult) => r.cpuMicrosPerRequest ?? Number.NaN;
  const rpsRatio = api.map((a, i) => rps(a) / rps(bare[i] as LoadResult));
  const cpuRatio = api.map((a, i) => cpu(a) / cpu(bare[i] as LoadResult));
  return [
    `${name}`,
    `  server  req/s ${spread(api.map(rps), 0)}   p50 ${spread(
      api.map((r) => r.p50),
      2,
    )} ms   p99 ${spread(
      api.map((r) => r.p99),
      2,
    )} ms   CPU ${spread(api.map(cpu), 1)} µs/req`,
    `  bare    req/s ${spread(bare.map(rps), 0)}   p50 ${spread(
      bare.map((r) => r.p50),
      2,
    )} ms   p99 ${spread(
      bare.map((r) => r.p99),
      2,
    )} ms   CPU ${spread(bare.map(cpu), 1)} µs/req`,
    `  ratio   req/s ${spread(rpsRatio, 2)}×   CPU ${spread(cpuRatio, 2)}×`,
  ].join('\n');
}
