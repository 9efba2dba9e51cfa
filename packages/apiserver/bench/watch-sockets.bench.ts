/**
 * Watch sockets at scale (issue 18 item 5): the reference server (memory store, plain HTTP) in its
 * own process, W watch connections from two client processes, W/10 namespaces with 10 watchers
 * each, and ConfigMap creations paced so that 1,000 events/s in total reach the sockets (100
 * creates/s, each delivered to its namespace's 10 watchers). Reported per run: delivery latency
 * p50/p99/max (from the create being sent to the event parsed by a client; clocks are one machine's),
 * events delivered, server RSS (peak while loaded) and server CPU per second. Baseline in the same
 * run: 10 watchers (one namespace) at the same create rate. Rounds alternate baseline, 1,000 and
 * 10,000 watchers; min/median/max over the rounds.
 *
 * Run: `node --import tsx packages/apiserver/bench/watch-sockets.bench.ts`.
 * `WATCHERS=1000,10000` (the scales), `ROUNDS=3`, `SECONDS=20`, `EVENTS_PER_SEC=1000`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { Agent, type ClientRequest, request } from 'node:http';
import {
  constants,
  monitorEventLoopDelay,
  type PerformanceEntry,
  PerformanceObserver,
  performance,
} from 'node:perf_hooks';

const role = process.argv[2] ?? 'main';
const perNamespace = 10;
const now = () => performance.timeOrigin + performance.now();

type Msg = Record<string, unknown>;

/** Forks this file in `role`, and talks to it by messages. */
function spawnRole(r: string, args: string[] = []) {
  const child: ChildProcess = fork(import.meta.filename, [r, ...args], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.once('exit', (code) => {
    if (code !== 0) {
      console.error(`bench ${r} process exited with ${code}`);
      process.exit(1);
    }
  });
  // A message that arrives before anyone waits for it is queued, not dropped (a dropped one left
  // the bench waiting for ever).
  const waiters: ((m: Msg) => void)[] = [];
  const queued: Msg[] = [];
  child.on('message', (m: Msg) => {
    const waiter = waiters.shift();
    if (waiter) waiter(m);
    else queued.push(m);
  });
  return {
    child,
    next: () => {
      const early = queued.shift();
      return early ? Promise.resolve(early) : new Promise<Msg>((resolve) => waiters.push(resolve));
    },
    send: (m: Msg) => child.send(m),
  };
}

function post(agent: Agent, url: string, path: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function serverRole(): Promise<void> {
  const { createApiServer } = await import('../src/index.js');
  const server = createApiServer({ maxWatchesPerUser: 0 });
  const { url } = await server.listen(0);
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 200);
  let cpu = process.cpuUsage();
  let t = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // GC pauses of the server while loaded: do they make the delivery tail?
  const gc = { pauses: 0, totalMs: 0, maxMs: 0, major: 0, majorMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.pauses++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major++;
        gc.majorMs += e.duration;
      }
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  process.on('message', (m: Msg) => {
    if (m.op === 'mark') {
      peakRss = process.memoryUsage().rss;
      loop.reset();
      Object.assign(gc, { pauses: 0, totalMs: 0, maxMs: 0, major: 0, majorMs: 0 });
      cpu = process.cpuUsage();
      t = performance.now();
      process.send?.({});
    } else if (m.op === 'stats') {
      const c = process.cpuUsage(cpu);
      const seconds = (performance.now() - t) / 1000;
      process.send?.({
        peakRss,
        cpuPerSecond: (c.user + c.system) / 1e6 / seconds,
        loopP99: loop.percentile(99) / 1e6,
        loopMax: loop.max / 1e6,
        gc: { ...gc },
      });
    } else if (m.op === 'stop') {
      clearInterval(sampler);
      gcObserver.disconnect();
      void server.close().then(() => process.exit(0));
    }
  });
  process.send?.({ url });
}

async function clientRole(url: string, namespaces: string[], watchers: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const latencies: number[] = [];
  const reqs: ClientRequest[] = [];
  let open = 0;
  // Connections are opened 200 at a time: thousands at once overflow the listen backlog.
  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ns = namespaces[i % namespaces.length] as string;
      const req = request(
        `${url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=0&allowWatchBookmarks=true`,
        { agent },
        (res) => {
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buf += chunk;
            const at = now();
            for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              const ev = JSON.parse(line) as { type: string; object: { data?: { t?: string } } };
              const sent = ev.object.data?.t;
              if (ev.type === 'ADDED' && sent) latencies.push(at - Number(sent));
            }
          });
          open++;
          resolve();
        },
      );
      req.on('error', reject);
      req.end();
      reqs.push(req);
    });
  for (let i = 0; i < watchers; i += 200)
    await Promise.all(Array.from({ length: Math.min(200, watchers - i) }, (_, j) => openOne(i + j)));
  process.send?.({ open });
  process.on('message', (m: Msg) => {
    if (m.op !== 'stop') return;
    for (const r of reqs) r.destroy();
    agent.destroy();
    process.send?.({ latencies });
    process.exit(0);
  });
}

interface RunResult {
  watchers: number;
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  peakRssMb: number;
  cpuPerSecond: number;
  /** The server's event-loop delay while loaded, p99 and max (ms). */
  loopP99: number;
  loopMax: number;
  /** The creates' response time, p99 (ms). */
  createP99: number;
  /** The server's GC pauses in the measured window: count, total and longest (ms), and the major ones. */
  gc: { pauses: number; totalMs: number; maxMs: number; major: number; majorMs: number };
}

async function run(watchers: number, seconds: number, eventsPerSecond: number): Promise<RunResult> {
  const server = spawnRole('server');
  const { url } = (await server.next()) as { url: string };
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const nsCount = Math.max(1, Math.ceil(watchers / perNamespace));
  const namespaces = Array.from({ length: nsCount }, (_, i) => `ns-${i}`);
  for (let i = 0; i < nsCount; i += 16)
    await Promise.all(
      namespaces
        .slice(i, i + 16)
        .map((name) => post(agent, url, '/api/v1/namespaces', { metadata: { name } })),
    );
  const clientCount = watchers >= 1000 ? 2 : 1;
  const clients = Array.from({ length: clientCount }, () =>
    spawnRole('client', [url, JSON.stringify(namespaces), String(Math.ceil(watchers / clientCount))]),
  );
  await Promise.all(clients.map((c) => c.next()));
  // Paced creates: each goes to one namespace (10 watchers of it receive it). The first two seconds
  // warm the server up and are not measured.
  const createsPerSecond = eventsPerSecond / perNamespace;
  const warm = Math.round(createsPerSecond * 2);
  for (let i = 0; i < warm; i++) {
    await new Promise((r) => setTimeout(r, 1000 / createsPerSecond));
    void post(agent, url, `/api/v1/namespaces/${namespaces[i % nsCount]}/configmaps`, {
      metadata: { name: `warm-${i}` },
    });
  }
  server.send({ op: 'mark' });
  await server.next();
  const total = Math.round(createsPerSecond * seconds);
  const t0 = performance.now();
  const inflight: Promise<number>[] = [];
  const createLatencies: number[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / createsPerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const ns = namespaces[i % nsCount] as string;
    const sentAt = now();
    inflight.push(
      post(agent, url, `/api/v1/namespaces/${ns}/configmaps`, {
        metadata: { name: `cm-${i}` },
        data: { t: String(sentAt), pad: 'v'.repeat(200) },
      }).then((status) => {
        createLatencies.push(now() - sentAt);
        return status;
      }),
    );
  }
  const statuses = await Promise.all(inflight);
  if (statuses.some((s) => s !== 201)) throw new Error(`creates failed: ${statuses.find((s) => s !== 201)}`);
  await new Promise((r) => setTimeout(r, 1000)); // let the last events arrive
  server.send({ op: 'stats' });
  const stats = (await server.next()) as {
    peakRss: number;
    cpuPerSecond: number;
    loopP99: number;
    loopMax: number;
    gc: RunResult['gc'];
  };
  const latencies: number[] = [];
  for (const c of clients) {
    c.send({ op: 'stop' });
    const { latencies: l } = (await c.next()) as { latencies: number[] };
    for (const x of l) latencies.push(x);
  }
  server.send({ op: 'stop' });
  await new Promise((r) => server.child.once('exit', r));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  createLatencies.sort((a, b) => a - b);
  const q = (p: number, xs = latencies) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
  const perNs = Math.min(perNamespace, watchers);
  return {
    watchers,
    delivered: latencies.length,
    expected: total * perNs,
    p50: q(0.5),
    p99: q(0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    peakRssMb: stats.peakRss / 2 ** 20,
    cpuPerSecond: stats.cpuPerSecond,
    loopP99: stats.loopP99,
    loopMax: stats.loopMax,
    createP99: q(0.99, createLatencies),
    gc: stats.gc,
  };
}

const mmm = (xs: number[], digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number | undefined) => (x ?? NaN).toFixed(digits);
  return `${f(s[0])} / ${f(s[Math.floor(s.length / 2)])} / ${f(s[s.length - 1])}`;
};

async function main(): Promise<void> {
  const scales = (process.env.WATCHERS ?? '1000,10000').split(',').map(Number);
  const rounds = Number(process.env.ROUNDS ?? 3);
  const seconds = Number(process.env.SECONDS ?? 20);
  const eps = Number(process.env.EVENTS_PER_SEC ?? 1000);
  console.log(
    `watch sockets: ${eps} events/s in total (${eps / perNamespace} creates/s, ${perNamespace} watchers per namespace), ${seconds} s per run, ${rounds} rounds (node ${process.version})`,
  );
  const results = new Map<number, RunResult[]>();
  for (let r = 0; r < rounds; r++) {
    for (const w of [perNamespace, ...scales]) {
      const res = await run(w, seconds, Math.min(eps, (eps / perNamespace) * Math.min(w, perNamespace)));
      console.log(
        `  round ${r + 1}, ${String(w).padStart(5)} watchers: ${res.delivered}/${res.expected} events, p50 ${res.p50.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, max ${res.max.toFixed(0)} ms, server RSS ${res.peakRssMb.toFixed(0)} MB, CPU ${(res.cpuPerSecond * 100).toFixed(0)}%, event-loop delay p99 ${res.loopP99.toFixed(0)} ms (max ${res.loopMax.toFixed(0)}), create p99 ${res.createP99.toFixed(0)} ms, GC ${res.gc.pauses} pauses ${res.gc.totalMs.toFixed(0)} ms in all (longest ${res.gc.maxMs.toFixed(1)} ms; ${res.gc.major} major, ${res.gc.majorMs.toFixed(0)} ms)`,
      );
      results.set(w, [...(results.get(w) ?? []), res]);
    }
  }
  console.log('min / median / max over the rounds:');
  for (const [w, rs] of results) {
    console.log(
      `  ${String(w).padStart(5)} watchers${w === perNamespace ? ' (baseline)' : ''}: p99 ${mmm(
        rs.map((x) => x.p99),
        1,
      )} ms, p50 ${mmm(
        rs.map((x) => x.p50),
        1,
      )} ms, server RSS ${mmm(rs.map((x) => x.peakRssMb))} MB, server CPU ${mmm(rs.map((x) => x.cpuPerSecond * 100))}%, delivered ${mmm(
        rs.map((x) => (100 * x.delivered) / x.expected),
        1,
      )}%`,
    );
  }
}

if (role === 'server') await serverRole();
else if (role === 'client')
  await clientRole(
    process.argv[3] as string,
    JSON.parse(process.argv[4] as string) as string[],
    Number(process.argv[5]),
  );
else await main();
