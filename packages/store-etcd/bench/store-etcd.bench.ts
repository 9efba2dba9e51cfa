// `pnpm bench store-etcd`: one run against one real etcd member (tmpfs data dir), so the figures
// are ratios on this machine: creates/s of raw etcd puts (etcd3's KV client), the etcd Store's
// creates (a transaction each), and ConfigMap creates through the full API path (the
// orchard-apiserver CLI with --storage etcd, plain HTTP on loopback, keep-alive), all at the same
// concurrency, in `BENCH_ROUNDS` (3) rounds that alternate the order of the phases, so each round's
// ratio compares phases run moments apart (min / median / max of the rounds); then the latency of
// listing 1,000 objects, raw range vs a GET of the list through the API.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEtcdStore } from '../src/index.js';
import { startEtcdCluster } from '../src/testing/index.js';

const n = 2000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = 64;
const listRuns = 20;
const data = { a: 'x'.repeat(400) };
const value = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data }));

async function inFlight(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await op(next++);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/** CPU time (user + system, ms) a process has used so far, from /proc (0 when unreadable). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The pid of the etcd process serving `dataDir` (found in /proc), for its CPU time. */
function pidServing(dataDir: string): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(dataDir)) return Number(d);
    } catch {}
  }
  return undefined;
}

/** CPU µs per operation of the bench client, the server and etcd over one phase. */
interface PhaseCpu {
  client: number;
  server: number;
  etcd: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const cluster = await startEtcdCluster({ members: 1 });
const dataDir = mkdtempSync(join(tmpdir(), 'orchard-etcd-bench-'));
const cli = join(import.meta.dirname, '..', '..', 'apiserver', 'bin', 'orchard-apiserver.mjs');
const children: ReturnType<typeof spawn>[] = [];
/** Ends a server: at once, or (when profiling) with SIGTERM and a wait, so it writes its profile. */
async function stop(child: ReturnType<typeof spawn> | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(process.env.BENCH_CPU_PROF ? 'SIGTERM' : 'SIGKILL');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
}
/** Starts the CLI with `args` on a free port over plain HTTP; resolves with its URL. */
async function startServer(args: string[]): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=dir: a CPU profile of each server process (node --cpu-prof), for hot spots.
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      cli,
      '--port',
      '0',
      '--insecure-http',
      '--max-mutating-requests-inflight',
      '0',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  for (let i = 0; i < 600 && !/listening on (\S+)/.test(out); i++)
    await new Promise((r) => setTimeout(r, 50));
  const url = /listening on (\S+)/.exec(out)?.[1];
  if (!url) throw new Error(`the server did not start: ${out}`);
  return url;
}
try {
  const url = await startServer([
    '--storage',
    'etcd',
    '--etcd-servers',
    cluster.endpoints[0]!,
    '--etcd-prefix',
    '/api',
    '--data-dir',
    dataDir,
  ]);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const call = (method: string, path: string, body?: unknown, base = url) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${base}${path}`,
        { method, agent, headers: payload ? { 'content-type': 'application/json' } : {} },
        (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } };
  if ((await call('POST', '/api/v1/namespaces', ns)).status !== 201)
    throw new Error('namespace create failed');

  const post = (ns: string, name: string, base = url) =>
    call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data }, base).then((r) => {
      if (r.status !== 201) throw new Error(`create answered ${r.status}`);
    });
  // The list phase runs first, before any raw write: writes outside the server's prefix raise
  // etcd's revision past anything its watch caches see, and consistent reads then wait for the
  // cache before reading etcd (see README).
  if ((await call('POST', '/api/v1/namespaces', { ...ns, metadata: { name: 'list1000' } })).status !== 201)
    throw new Error('namespace create failed');
  await inFlight(1000, (i) => post('list1000', `l-${String(i).padStart(4, '0')}`));
  const apiList: number[] = [];
  for (let r = 0; r < listRuns; r++) {
    const t = performance.now();
    const api = await call('GET', '/api/v1/namespaces/list1000/configmaps');
    apiList.push(performance.now() - t);
    if (api.status !== 200) throw new Error(`list answered ${api.status}`);
  }

  const raw = createEtcdStore({ endpoints: cluster.endpoints, prefix: '/raw' });
  const kv = raw.client.kv;
  await inFlight(200, (i) => post('bench', `warm-${i}`));
  await inFlight(200, (i) => kv.put({ key: Buffer.from(`/warm/raw/${i}`), value }));
  const etcdPid = pidServing(cluster.members[0]!.dataDir);
  const serverPid = children[0]?.pid;
  /** Runs `n` ops like inFlight, also noting the CPU per op of this process, the server and etcd. */
  async function measured(cpu: PhaseCpu[], op: (i: number) => Promise<unknown>, pid = serverPid) {
    const c0 = process.cpuUsage();
    const s0 = cpuMsOf(pid);
    const e0 = cpuMsOf(etcdPid);
    const rate = await inFlight(n, op);
    const c = process.cpuUsage(c0);
    cpu.push({
      client: (c.user + c.system) / n,
      server: ((cpuMsOf(pid) - s0) * 1000) / n,
      etcd: ((cpuMsOf(etcdPid) - e0) * 1000) / n,
    });
    return rate;
  }
  const apiCreates: number[] = [];
  const rawPuts: number[] = [];
  const storeCreates: number[] = [];
  const apiCpu: PhaseCpu[] = [];
  const rawCpu: PhaseCpu[] = [];
  const storeCpu: PhaseCpu[] = [];
  for (let round = 0; round < rounds; round++) {
    const phases = [
      async () => apiCreates.push(await measured(apiCpu, (i) => post('bench', `c-${round}-${i}`))),
      async () =>
        rawPuts.push(
          await measured(rawCpu, (i) => kv.put({ key: Buffer.from(`/raw/cm/bench/${round}/${i}`), value })),
        ),
      async () =>
        storeCreates.push(
          await measured(storeCpu, (i) => raw.create(`/store/cm/bench/${round}/${i}`, value)),
        ),
    ];
    if (round % 2 === 1) phases.reverse();
    for (const phase of phases) await phase();
  }

  await inFlight(1000, (i) => kv.put({ key: Buffer.from(`/list1000/${String(i).padStart(4, '0')}`), value }));
  const rawList: number[] = [];
  for (let r = 0; r < listRuns; r++) {
    const t = performance.now();
    const res = await kv.range({ key: Buffer.from('/list1000/'), range_end: Buffer.from('/list10000') });
    rawList.push(performance.now() - t);
    if (res.kvs.length !== 1000) throw new Error(`raw list returned ${res.kvs.length}`);
  }
  await raw.close();

  // The same API path on the memory store: the ceiling the API path itself sets on this machine.
  const memUrl = await startServer(['--storage', 'memory']);
  await call('POST', '/api/v1/namespaces', ns, memUrl);
  await inFlight(200, (i) => post('bench', `warm-${i}`, memUrl));
  const memCpu: PhaseCpu[] = [];
  const memCreates = await measured(memCpu, (i) => post('bench', `c-${i}`, memUrl), children.at(-1)?.pid);
  await stop(children.pop());
  agent.destroy();

  const fmt = (x: number) => `${Math.round(x)}/s`;
  const spread = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0]!.toFixed(2)} / ${median(s).toFixed(2)} / ${s[s.length - 1]!.toFixed(2)}×`;
  };
  const perRound = (xs: number[]) => xs.map(fmt).join(', ');
  const ratios = (xs: number[]) => xs.map((x, i) => x / rawPuts[i]!);
  console.log(
    `one etcd 3.4 member on tmpfs; ${n} creates of ${value.length} B, ${concurrency} in flight, ${rounds} rounds (phase order alternating)`,
  );
  console.log(`raw etcd puts (etcd3 KV client):     ${perRound(rawPuts)}`);
  console.log(
    `etcd Store creates (txn each):       ${perRound(storeCreates)}; vs raw puts of the round min / median / max ${spread(ratios(storeCreates))}`,
  );
  console.log(
    `API creates (POST configmaps, HTTP): ${perRound(apiCreates)}; vs raw puts of the round min / median / max ${spread(ratios(apiCreates))} (target ≥ 0.7×)`,
  );
  console.log(
    `API creates on the memory store:     ${fmt(memCreates)} (etcd API median = ${(median(apiCreates) / memCreates).toFixed(2)}× memory API)`,
  );
  const us = (xs: PhaseCpu[], k: keyof PhaseCpu) => `${Math.round(median(xs.map((x) => x[k])))} µs`;
  const cpuRow = (label: string, xs: PhaseCpu[]) =>
    console.log(`  ${label} client ${us(xs, 'client')}, server ${us(xs, 'server')}, etcd ${us(xs, 'etcd')}`);
  console.log('CPU per operation (median of the rounds; from process.cpuUsage and /proc):');
  cpuRow('raw puts:          ', rawCpu);
  cpuRow('Store creates:     ', storeCpu);
  cpuRow('API creates (etcd):', apiCpu);
  cpuRow('API creates (mem): ', memCpu);
  console.log(
    `list of 1,000, median of ${listRuns}: raw range ${median(rawList).toFixed(1)} ms, API GET ${median(apiList).toFixed(1)} ms (${(median(apiList) / median(rawList)).toFixed(1)}× raw)`,
  );
} finally {
  await Promise.all(children.map(stop));
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
