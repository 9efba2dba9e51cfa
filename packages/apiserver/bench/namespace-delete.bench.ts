/**
 * Deleting a namespace holding 10,000 config maps on the memory store: `DELETE
 * /api/v1/namespaces/<ns>` over HTTP, then the namespace controller empties it (through the same
 * deletion state machine as API deletes, with the garbage collector watching every event) and
 * removes it. Measured: wall time from the DELETE to the namespace being gone (GET 404), and peak
 * memory (heapUsed and RSS sampled every 5 ms, above the level before the DELETE).
 * Baseline, same run: removing the same number of keys with a bare loop of `objects.delete` on a
 * fresh server (no lifecycle work at all: the storage floor), so the figure is a ratio.
 *
 * Run: `pnpm bench apiserver` (or `node --import tsx packages/apiserver/bench/namespace-delete.bench.ts`).
 * `BENCH_OBJECTS=N` changes the count.
 */
import { performance } from 'node:perf_hooks';
import { newUid, nowRfc3339 } from '@orchard/meta';
import { type ApiServer, createApiServer } from '../src/index.js';

const count = Number(process.env.BENCH_OBJECTS ?? 10_000);
const ns = 'bench';
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function fill(api: ApiServer): Promise<string[]> {
  await api.ready;
  const keys: string[] = [];
  await api.objects.create(api.objects.key({ group: '', resource: 'namespaces', namespace: '' }, ns), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns, uid: newUid(), creationTimestamp: nowRfc3339() },
    spec: { finalizers: [api.options.flavor.namespaceFinalizer] },
    status: { phase: 'Active' },
  });
  for (let i = 0; i < count; i++) {
    const name = `cm-${String(i).padStart(5, '0')}`;
    const key = api.objects.key({ group: '', resource: 'configmaps', namespace: ns }, name);
    await api.objects.create(key, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: ns,
        uid: newUid(),
        creationTimestamp: nowRfc3339(),
        labels: { app: 'bench' },
      },
      data: { key: `value-${i}`, other: 'x'.repeat(64) },
    });
    keys.push(key);
  }
  return keys;
}

function sampler(): { stop(): { heap: number; rss: number } } {
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let rss = base.rss;
  const t = setInterval(() => {
    const m = process.memoryUsage();
    if (m.heapUsed > heap) heap = m.heapUsed;
    if (m.rss > rss) rss = m.rss;
  }, 5);
  return {
    stop() {
      clearInterval(t);
      const m = process.memoryUsage();
      return { heap: Math.max(heap, m.heapUsed) - base.heapUsed, rss: Math.max(rss, m.rss) };
    },
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

async function baseline(): Promise<number> {
  const api = createApiServer({ lifecycleControllers: false });
  const keys = await fill(api);
  gc?.();
  const t0 = performance.now();
  for (const key of keys) await api.objects.delete(key);
  const ms = performance.now() - t0;
  await api.close();
  return ms;
}

async function namespaceDelete(): Promise<{
  ms: number;
  heap: number;
  rss: number;
  requestMs: number;
  p50: number;
  max: number;
}> {
  const api = createApiServer({});
  const { url } = await api.listen(0);
  await fill(api);
  await api.lifecycle.idle();
  // Warm the connection and let every cache digest the 10,000 creates (three quick GETs in a row),
  // so the timing is the delete alone.
  let quick = 0;
  for (let i = 0; i < 400 && quick < 3; i++) {
    const q0 = performance.now();
    await (await fetch(`${url}/api/v1/namespaces/${ns}`)).arrayBuffer();
    quick = performance.now() - q0 < 5 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 5));
  }
  gc?.();
  const s = sampler();
  const t0 = performance.now();
  const res = await fetch(`${url}/api/v1/namespaces/${ns}`, { method: 'DELETE' });
  if (res.status !== 200) throw new Error(`DELETE answered ${res.status}`);
  await res.arrayBuffer();
  const requestMs = performance.now() - t0;
  // The poll doubles as a probe of request latency while the controllers work.
  const latencies: number[] = [];
  for (;;) {
    const q0 = performance.now();
    const r = await fetch(`${url}/api/v1/namespaces/${ns}`);
    await r.arrayBuffer();
    latencies.push(performance.now() - q0);
    if (r.status === 404) break;
    await new Promise((r2) => setTimeout(r2, 5));
  }
  latencies.sort((a, b) => a - b);
  const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
  const max = latencies.at(-1) ?? 0;
  const ms = performance.now() - t0;
  const mem = s.stop();
  const left = await api.objects.list(
    api.objects.prefix({ group: '', resource: 'configmaps', namespace: ns }),
  );
  if (left.items.length !== 0) throw new Error(`${left.items.length} config maps left`);
  await api.close();
  return { ms, requestMs, p50, max, ...mem };
}

const base = await baseline();
const run = await namespaceDelete();
console.log(`namespace with ${count} config maps (memory store, Node ${process.version})`);
console.log(`| measure | value |\n|---|---|`);
console.log(`| DELETE request answered (Terminating) | ${run.requestMs.toFixed(1)} ms |`);
console.log(
  `| namespace gone (GET 404) | ${run.ms.toFixed(0)} ms (${((count / run.ms) * 1000).toFixed(0)} objects/s) |`,
);
console.log(`| GET latency meanwhile (p50 / max) | ${run.p50.toFixed(1)} ms / ${run.max.toFixed(1)} ms |`);
console.log(
  `| baseline: bare objects.delete loop | ${base.toFixed(0)} ms (${((count / base) * 1000).toFixed(0)} objects/s) |`,
);
console.log(`| ratio namespace / baseline | ${(run.ms / base).toFixed(1)}× |`);
console.log(`| peak heapUsed above start | ${mib(run.heap)} |`);
console.log(`| peak RSS | ${mib(run.rss)} |`);
