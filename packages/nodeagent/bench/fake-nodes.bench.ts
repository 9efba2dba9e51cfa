/**
 * Load (issue 17 item 8): N fake nodes (`startFakeNodes`, as `orchard-nodeagent --fake-nodes N` runs
 * them: each its own identity through impersonation, one shared keep-alive client of at most 64
 * sockets) heartbeating against one reference server for D seconds: the Lease every 10 s and the
 * status check (a GET of the Node) every 10 s, upstream's defaults. The server runs in a child process
 * (`fake-nodes-server.ts`: HTTPS, memory store, Node authorizer and NodeRestriction on), so its CPU
 * (`process.cpuUsage()` there) and RSS are its own.
 *
 * Each round runs a baseline first, in the same run: the same number of Leases renewed on the same
 * schedule by plain PUTs of the admin (no agent, no impersonation, no status loop). Reported per phase:
 * Lease update latency p50/p99/max, missed renewals (a renewal later than the interval + slack after
 * the previous one), retries, server CPU (% of one core over the window), server RSS (max sampled),
 * and the event-loop delay p99 of this (client) process; then fake/baseline ratios as min/median/max
 * over the rounds.
 *
 *   pnpm bench nodeagent                                    # 1,000 nodes, 120 s, 1 round
 *   BENCH_NODES=1000 BENCH_SECONDS=20 BENCH_ROUNDS=3 pnpm bench nodeagent
 *
 * Environment: BENCH_NODES (1000), BENCH_SECONDS (120), BENCH_ROUNDS (1), BENCH_FLAVOR (orch),
 * BENCH_INTERVAL_MS (10000), BENCH_SLACK_MS (1000), BENCH_CPU_PROF (a directory: the server runs
 * with `--cpu-prof` and writes its profile there on exit).
 */
import { fork } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  createRestClient,
  isClientError,
  loadKubeconfig,
  type RestClient,
  resolveConnection,
} from '@orchard/client';
import { type Flavor, flavorByName, formatMicroTime } from '@orchard/meta';
import { sleep } from '../src/backoff.js';
import { startFakeNodes } from '../src/index.js';

const nodes = Number(process.env.BENCH_NODES ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 120);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const flavor: Flavor = flavorByName(process.env.BENCH_FLAVOR ?? 'orch');
const intervalMs = Number(process.env.BENCH_INTERVAL_MS ?? 10_000);
const slackMs = Number(process.env.BENCH_SLACK_MS ?? 1000);
const cpuProf = process.env.BENCH_CPU_PROF;

// ---- the server process ----------------------------------------------------------------------
const server = fork(new URL('./fake-nodes-server.ts', import.meta.url).pathname, [flavor.name], {
  execArgv: ['--import', 'tsx', ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [])],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
process.on('exit', () => server.kill());
const { kubeconfigPath } = await new Promise<{ url: string; kubeconfigPath: string }>((resolve) =>
  server.once('message', (m) => resolve(m as { url: string; kubeconfigPath: string })),
);
/** The server's answer to `cpu`. */
interface ServerUsage {
  cpuMicros: number;
  rss: number;
  connections: number;
  loopP99Ms: number;
  loopMaxMs: number;
}
let nextId = 0;
const pending = new Map<number, (m: ServerUsage) => void>();
server.on('message', (m: ServerUsage & { id?: number }) => {
  if (m.id === undefined) return;
  pending.get(m.id)?.(m);
  pending.delete(m.id);
});
const ask = (op: 'cpu' | 'loop' | 'stop') =>
  new Promise<ServerUsage>((resolve) => {
    const id = ++nextId;
    pending.set(id, resolve);
    server.send({ id, op });
  });

// One client for everything, as the CLI's: the admin (system:masters), keep-alive, 64 sockets.
const client: RestClient = createRestClient({
  ...resolveConnection(loadKubeconfig(kubeconfigPath)),
  userAgent: 'fake-nodes-bench',
  maxSockets: 64,
});

/** What one phase measured. */
interface PhaseResult {
  updates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  missed: number;
  retries: number;
  nodesRenewing: number;
  serverCpuPct: number;
  serverRssMiB: number;
  /** The server's event-loop delay over the window. */
  serverLoopP99Ms: number;
  serverLoopMaxMs: number;
  /** TLS connections the server accepted during the window. */
  connections: number;
  clientLoopDelayP99Ms: number;
  /** This (client) process's CPU over the window, % of one core. */
  clientCpuPct: number;
}

/** Collects Lease renewals of one phase: latencies, and per node the gap since its last renewal. */
function recorder() {
  const latencies: number[] = [];
  const last = new Map<string, number>();
  const renewing = new Set<string>();
  let missed = 0;
  let retries = 0;
  let measuring = false;
  return {
    start() {
      measuring = true;
    },
    stop() {
      measuring = false;
    },
    ok(node: string, latencyMs: number, at: number) {
      const prev = last.get(node);
      last.set(node, at);
      if (!measuring) return;
      latencies.push(latencyMs);
      renewing.add(node);
      if (prev !== undefined && at - prev > intervalMs + slackMs) missed++;
    },
    retry() {
      if (measuring) retries++;
    },
    result() {
      latencies.sort((a, b) => a - b);
      const pct = (p: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
      return {
        updates: latencies.length,
        p50Ms: pct(50),
        p99Ms: pct(99),
        maxMs: latencies.at(-1) ?? 0,
        missed,
        retries,
        nodesRenewing: renewing.size,
      };
    },
  };
}

/** Runs the measuring window: server CPU and RSS, this process's event-loop delay. */
async function window(rec: ReturnType<typeof recorder>): Promise<PhaseResult> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  await ask('loop');
  const before = await ask('cpu');
  const clientBefore = process.cpuUsage();
  const t0 = performance.now();
  let rssMax = before.rss;
  rec.start();
  const end = t0 + seconds * 1000;
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(1000, end - performance.now())));
    rssMax = Math.max(rssMax, (await ask('cpu')).rss);
  }
  rec.stop();
  const after = await ask('cpu');
  const serverLoop = await ask('loop');
  const wallMs = performance.now() - t0;
  const clientCpu = process.cpuUsage(clientBefore);
  loop.disable();
  return {
    ...rec.result(),
    serverCpuPct: ((after.cpuMicros - before.cpuMicros) / 1000 / wallMs) * 100,
    serverRssMiB: Math.max(rssMax, after.rss) / 2 ** 20,
    connections: after.connections - before.connections,
    serverLoopP99Ms: serverLoop.loopP99Ms,
    serverLoopMaxMs: serverLoop.loopMaxMs,
    clientLoopDelayP99Ms: loop.percentile(99) / 1e6,
    clientCpuPct: ((clientCpu.user + clientCpu.system) / 1000 / wallMs) * 100,
  };
}

/** The baseline: N Leases renewed every interval by plain PUTs, with the same jittered start. */
async function baseline(): Promise<PhaseResult> {
  const base = `/apis/${flavor.group('coordination')}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases`;
  const rec = recorder();
  const stop = new AbortController();
  setMaxListeners(nodes + 10, stop.signal);
  const names = Array.from({ length: nodes }, (_, i) => `baseline-${i}`);
  const spec = (name: string) => ({
    holderIdentity: name,
    leaseDurationSeconds: 40,
    renewTime: formatMicroTime(new Date()),
  });
  /** The Lease, created when missing; transient errors are retried (bounded). */
  const ensure = async (name: string): Promise<Record<string, unknown>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.json({ method: 'GET', path: `${base}/${name}` });
      } catch (e) {
        if (isClientError(e, 'Status') && e.status === 404) {
          try {
            return await client.json({
              method: 'POST',
              path: base,
              body: {
                apiVersion: `${flavor.group('coordination')}/v1`,
                kind: 'Lease',
                metadata: { name },
                spec: spec(name),
              },
            });
          } catch (e2) {
            if (attempt >= 20) throw e2;
          }
        } else if (attempt >= 20) throw e;
      }
      await sleep(200, new AbortController().signal);
    }
  };
  // Every Lease exists before any loop starts (setup is not measured).
  const initial: Record<string, unknown>[] = [];
  for (let i = 0; i < names.length; i += 100)
    initial.push(...(await Promise.all(names.slice(i, i + 100).map(ensure))));
  const loops = names.map(async (name, i) => {
    let lease = initial[i] as Record<string, unknown>;
    await sleep(Math.random() * intervalMs, stop.signal);
    while (!stop.signal.aborted) {
      const started = performance.now();
      try {
        lease = await client.json({
          method: 'PUT',
          path: `${base}/${name}`,
          body: { ...lease, spec: spec(name) },
          signal: AbortSignal.timeout(10_000),
        });
        rec.ok(name, performance.now() - started, Date.now());
        await sleep(intervalMs, stop.signal);
      } catch {
        rec.retry();
        await sleep(200, stop.signal);
        lease = await ensure(name).catch(() => lease);
      }
    }
  });
  await sleep(intervalMs, new AbortController().signal); // every loop has started
  const result = await window(rec);
  stop.abort();
  await Promise.all(loops);
  return result;
}

/** The fake nodes: `startFakeNodes` as the CLI runs it; measured once every node has registered. */
async function fakeNodes(): Promise<PhaseResult> {
  const rec = recorder();
  const fake = startFakeNodes({
    client,
    flavor,
    count: nodes,
    prefix: 'bench-node-',
    leaseRenewIntervalMs: intervalMs,
    onEvent: (node, e) => {
      if (e.loop !== 'lease') return;
      if (e.type === 'ok') rec.ok(node, e.latencyMs, e.at);
      else rec.retry();
    },
  });
  const t0 = performance.now();
  await fake.registered;
  console.log(`  ${nodes} fake nodes registered in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const result = await window(rec);
  await fake.stop();
  return result;
}

const fmt = (r: PhaseResult) =>
  `updates ${r.updates}  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  max ${r.maxMs.toFixed(0)} ms  ` +
  `missed ${r.missed}  retries ${r.retries}  renewing ${r.nodesRenewing}/${nodes}  server CPU ${r.serverCpuPct.toFixed(1)}%  ` +
  `server RSS ${r.serverRssMiB.toFixed(0)} MiB  new connections ${r.connections}  server loop delay p99 ${r.serverLoopP99Ms.toFixed(0)} ms max ${r.serverLoopMaxMs.toFixed(0)} ms  client CPU ${r.clientCpuPct.toFixed(1)}%  client loop delay p99 ${r.clientLoopDelayP99Ms.toFixed(1)} ms`;

console.log(
  `fake nodes: ${nodes} nodes, ${seconds} s windows, ${rounds} round(s), flavor ${flavor.name}, Lease every ${intervalMs} ms, slack ${slackMs} ms`,
);
const results: { base: PhaseResult; fake: PhaseResult }[] = [];
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const base = await baseline();
  console.log(`  baseline (raw PUTs): ${fmt(base)}`);
  const fake = await fakeNodes();
  console.log(`  fake nodes:          ${fmt(fake)}`);
  results.push({ base, fake });
}
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${(s[0] ?? 0).toFixed(2)} / ${(s[Math.floor(s.length / 2)] ?? 0).toFixed(2)} / ${(s.at(-1) ?? 0).toFixed(2)}`;
};
const ratio = (f: (r: PhaseResult) => number) =>
  results.map(({ base, fake }) => f(fake) / Math.max(f(base), 1e-9));
console.log('fake nodes ÷ baseline, min / median / max over the rounds:');
console.log(
  `  Lease p50 ${spread(ratio((r) => r.p50Ms))}   p99 ${spread(ratio((r) => r.p99Ms))}   server CPU ${spread(ratio((r) => r.serverCpuPct))}`,
);
const worst = results.map((r) => r.fake);
const verdict = worst.every((r) => r.p99Ms < 100 && r.missed === 0 && r.nodesRenewing === nodes);
console.log(`target (p99 < 100 ms, no missed renewals, every node renewing): ${verdict ? 'met' : 'NOT met'}`);
await ask('stop');
process.exit(0);
