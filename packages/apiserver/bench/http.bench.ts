/**
 * HTTP throughput, latency and server CPU per request of the reference server (insecure HTTP,
 * memory store) in its own process (`bench-server.ts`), against a bare `node:http` server in that
 * same process answering the same bytes (the cost of HTTP alone), for GET, create, update, LIST 100
 * and LIST 1,000 of config maps: three rounds, bare and reference alternating, min/median/max
 * reported. Then create throughput at ~1k and at ~100k stored objects (a fresh server process; the
 * 100k are put straight into the store). Last, `startTestServer()` start time.
 *
 * Run: `pnpm bench apiserver` (or `node --import tsx packages/apiserver/bench/http.bench.ts`).
 * `BENCH_SCALE=0` skips the create-at-scale part; `BENCH_ROUNDS` sets the rounds (default 3);
 * `BENCH_ONLY=get,list1000` runs only those operations; `BENCH_CPU_PROF=<dir>` profiles the server.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@orchard/testing';
import { Pool } from 'undici';
import type { BareAnswer } from './bench-server.js';
import {
  formatRow,
  type LoadResult,
  loadTest,
  median,
  percentile,
  type RequestSpec,
  warmPool,
} from './load.js';

const connections = 32;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const scale = process.env.BENCH_SCALE !== '0';

interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly bareUrl: string;
  call(msg: Record<string, unknown>): Promise<Record<string, unknown>>;
}

async function startServerProcess(): Promise<ServerProcess> {
  const child = fork(join(import.meta.dirname, 'bench-server.ts'), [], {
    // BENCH_CPU_PROF=dir: a CPU profile of the server process (node --cpu-prof) for reading hot spots.
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, (m: Record<string, unknown>) => void>();
  const ready = new Promise<{ url: string; bareUrl: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.on('message', (m: Record<string, unknown>) => {
      if (m.ready) resolve(m as unknown as { url: string; bareUrl: string });
      else pending.get(m.id as number)?.(m);
    });
  });
  const { url, bareUrl } = await ready;
  return {
    child,
    url,
    bareUrl,
    call: (msg) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, (m) => {
          pending.delete(id);
          resolve(m);
        });
        child.send({ ...msg, id });
      }),
  };
}

async function request(
  pool: Pool,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const r = await pool.request({
    method,
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await r.body.arrayBuffer());
  return { status: r.statusCode, contentType: String(r.headers['content-type']), bytes };
}

function answer(r: { status: number; contentType: string; bytes: Buffer }): BareAnswer {
  return { status: r.status, contentType: r.contentType, body: r.bytes.toString('base64') };
}

/** A measured phase: the load result plus the server process's CPU per request. */
interface Phase extends LoadResult {
  readonly cpuMicrosPerRequest: number;
}

async function measure(
  server: ServerProcess,
  url: string,
  name: string,
  total: number,
  make: (i: number) => RequestSpec,
  expect: number,
): Promise<Phase> {
  // Requests 2,000,000 and up warm the connections (distinct names for creates).
  const pool = await warmPool(url, connections, (i) => make(i + 2_000_000), expect);
  const c0 = (await server.call({ op: 'cpu' })).cpuMicros as number;
  const r = await loadTest(name, pool, connections, total, make, expect);
  const c1 = (await server.call({ op: 'cpu' })).cpuMicros as number;
  await pool.close();
  return { ...r, cpuMicrosPerRequest: (c1 - c0) / total };
}

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

async function mainRuns(): Promise<void> {
  const server = await startServerProcess();
  const pool = new Pool(server.url, { connections: 4 });
  for (const ns of [
    'bench',
    'bench-create',
    'bench-update',
    'bench-list100',
    'bench-list1000',
    'bench-sample',
  ])
    await request(pool, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
  const fill = async (ns: string, n: number, prefix: string) => {
    const batch = 50;
    for (let i = 0; i < n; i += batch)
      await Promise.all(
        Array.from({ length: Math.min(batch, n - i) }, (_, j) =>
          request(
            pool,
            'POST',
            `/api/v1/namespaces/${ns}/configmaps`,
            configMap(`${prefix}-${i + j}`, { k: 'v'.repeat(256) }),
          ),
        ),
      );
  };
  await fill('bench-list100', 100, 'cm');
  await fill('bench-list1000', 1000, 'cm');
  await fill('bench-update', 100, 'u');
  await request(pool, 'POST', '/api/v1/namespaces/bench/configmaps', configMap('c', { a: 'b' }));
  const paths = {
    get: '/api/v1/namespaces/bench/configmaps/c',
    create: '/api/v1/namespaces/bench-create/configmaps',
    update: (i: number) => `/api/v1/namespaces/bench-update/configmaps/u-${i % 100}`,
    list100: '/api/v1/namespaces/bench-list100/configmaps',
    list1000: '/api/v1/namespaces/bench-list1000/configmaps',
  };
  // The bare server answers with the bytes the reference server answered for the same request.
  const sampleCreate = await request(
    pool,
    'POST',
    '/api/v1/namespaces/bench-sample/configmaps',
    configMap('s', { a: 'b' }),
  );
  const sampleUpdate = await request(
    pool,
    'PUT',
    '/api/v1/namespaces/bench-sample/configmaps/s',
    configMap('s', { a: '1' }),
  );
  const list100 = await request(pool, 'GET', paths.list100);
  const list1000 = await request(pool, 'GET', paths.list1000);
  await server.call({
    op: 'bare',
    answers: {
      [`GET ${paths.get}`]: answer(await request(pool, 'GET', paths.get)),
      [`POST ${paths.create}`]: answer(sampleCreate),
      'PUT *': answer(sampleUpdate),
      [`GET ${paths.list100}`]: answer(list100),
      [`GET ${paths.list1000}`]: answer(list1000),
    },
  });
  await pool.close();

  const allKinds: {
    key: string;
    name: string;
    total: number;
    expect: number;
    make: (i: number, round: number) => RequestSpec;
  }[] = [
    {
      key: 'get',
      name: 'GET one ConfigMap',
      total: 10_000,
      expect: 200,
      make: () => ({ method: 'GET', path: paths.get }),
    },
    {
      key: 'create',
      name: 'create ConfigMap',
      total: 4_000,
      expect: 201,
      make: (i, round) => ({
        method: 'POST',
        path: paths.create,
        body: JSON.stringify(configMap(`r${round}-${i}`, { a: 'b' })),
      }),
    },
    {
      key: 'update',
      name: 'update ConfigMap',
      total: 4_000,
      expect: 200,
      make: (i, round) => ({
        method: 'PUT',
        path: paths.update(i),
        body: JSON.stringify(configMap(`u-${i % 100}`, { k: `${round}-${i}` })),
      }),
    },
    {
      key: 'list100',
      name: `LIST 100 (${list100.bytes.byteLength} B)`,
      total: 2_000,
      expect: 200,
      make: () => ({ method: 'GET', path: paths.list100 }),
    },
    {
      key: 'list1000',
      name: `LIST 1,000 (${list1000.bytes.byteLength} B)`,
      total: 300,
      expect: 200,
      make: () => ({ method: 'GET', path: paths.list1000 }),
    },
  ];
  const only = process.env.BENCH_ONLY?.split(',');
  const kinds = only ? allKinds.filter((k) => only.includes(k.key)) : allKinds;
  // Warm-up (JIT) of both servers.
  for (const k of kinds) {
    const n = Math.min(500, Math.ceil(k.total / 10));
    await loadTest('warm-up', server.bareUrl, connections, n, (i) => k.make(i, 0), k.expect);
    await loadTest('warm-up', server.url, connections, n, (i) => k.make(i + 1_000_000, 0), k.expect);
  }
  const results = new Map<string, { bare: Phase[]; api: Phase[] }>();
  for (let round = 1; round <= rounds; round++) {
    for (const k of kinds) {
      const entry = results.get(k.name) ?? { bare: [], api: [] };
      results.set(k.name, entry);
      const make = (i: number) => k.make(i, round);
      // Alternate which goes first, so neither always meets the other's GC debt.
      const bareFirst = round % 2 === 1;
      if (bareFirst) entry.bare.push(await measure(server, server.bareUrl, 'bare', k.total, make, k.expect));
      entry.api.push(await measure(server, server.url, k.name, k.total, make, k.expect));
      if (!bareFirst) entry.bare.push(await measure(server, server.bareUrl, 'bare', k.total, make, k.expect));
    }
  }
  const mem = await server.call({ op: 'cpu' });
  server.child.disconnect();

  console.log(
    `HTTP/1.1 on 127.0.0.1, ${connections} connections, memory store, server in its own process, Node ${process.version}, ${rounds} rounds (min / median / max)`,
  );
  for (const [name, { bare, api }] of results) console.log(formatRow(name, api, bare));
  console.log(
    `server process after the runs: RSS ${((mem.rss as number) / 2 ** 20).toFixed(0)} MiB, heap ${((mem.heapUsed as number) / 2 ** 20).toFixed(0)} MiB`,
  );
}

/**
 * Create throughput at ~1k and at ~100k stored objects: two server processes, one prefilled with
 * 1k ConfigMaps and one with 100k (each settled: its caches and controllers have taken the
 * prefill in), measured in alternating rounds so both meet the same machine (a round of one and
 * then of the other; on this shared machine whole runs differ by 2× in absolute rate).
 */
async function scaleRuns(): Promise<void> {
  const perRound = 1_000;
  const open = async (objects: number) => {
    const server = await startServerProcess();
    const pool = new Pool(server.url, { connections: 1 });
    await request(pool, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'scale' },
    });
    await pool.close();
    const t0 = performance.now();
    await server.call({ op: 'prefill', namespace: 'scale', from: 0, to: objects });
    return { server, prefillSeconds: (performance.now() - t0) / 1000 };
  };
  const round = (server: ServerProcess, label: string) =>
    measure(
      server,
      server.url,
      label,
      perRound,
      (i) => ({
        method: 'POST',
        path: '/api/v1/namespaces/scale/configmaps',
        body: JSON.stringify(configMap(`${label}-${i}`, { a: 'b' })),
      }),
      201,
    );
  const small = await open(1_000);
  const large = await open(100_000);
  await round(small.server, 'warm');
  await round(large.server, 'warm');
  const atSmall: Phase[] = [];
  const atLarge: Phase[] = [];
  for (let r = 1; r <= rounds; r++) {
    // Alternate which goes first, so neither always follows the other's GC debt.
    if (r % 2 === 1) atSmall.push(await round(small.server, `at1k-${r}`));
    atLarge.push(await round(large.server, `at100k-${r}`));
    if (r % 2 === 0) atSmall.push(await round(small.server, `at1k-${r}`));
  }
  const mem = await large.server.call({ op: 'cpu' });
  small.server.child.disconnect();
  large.server.child.disconnect();
  const rps = (ps: Phase[]) => ps.map((p) => p.requests / p.seconds).sort((a, b) => a - b);
  const s = rps(atSmall);
  const l = rps(atLarge);
  const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
  console.log(
    `create throughput, ${perRound} creates a round into one namespace, two servers in alternating rounds (req/s, sorted):`,
  );
  console.log(`  at ~1k stored objects:   ${f(s)}`);
  console.log(
    `  at ~100k stored objects: ${f(l)}   (ratio of medians ${(median(l) / median(s)).toFixed(2)}; 100k put into the store and taken in by the server in ${large.prefillSeconds.toFixed(1)} s)`,
  );
  console.log(
    `  server process at ~100k objects: RSS ${((mem.rss as number) / 2 ** 20).toFixed(0)} MiB, heap ${((mem.heapUsed as number) / 2 ** 20).toFixed(0)} MiB`,
  );
}

async function startTimes(): Promise<void> {
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

await mainRuns();
if (scale) await scaleRuns();
await startTimes();
