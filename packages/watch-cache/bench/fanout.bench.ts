/**
 * (a) Fan-out: 10 000 concurrent watchers on one resource, 1 000 events, in process (no HTTP sockets:
 * 10 000 loopback sockets on 2 cores would measure the kernel, not the cache). Reports events
 * delivered per second and the p50/p99 delivery latency (write acknowledged → event received by the
 * watcher's consumer), for a burst (all writes back to back) and paced writes (one every 2 ms).
 * Baseline in the same run: the cache-less approach — one store watch per client, each decoding every
 * event itself (what the server did before the cache) — with 1 000 watchers, scaled per delivery.
 *
 *   npx tsx packages/watch-cache/bench/fanout.bench.ts
 *   CASES=paced BASELINE=0 npx tsx packages/watch-cache/bench/fanout.bench.ts   # the paced cache case only
 */
import { setMaxListeners } from 'node:events';
import type { ApiObject } from '@orchard/meta';
import { createMemoryStore, type KeyValue, type Store } from '@orchard/store';
import { createWatchCache } from '../src/index.js';

const WATCHERS = Number(process.env.WATCHERS ?? 10_000);
const EVENTS = Number(process.env.EVENTS ?? 1_000);
const BASELINE_WATCHERS = Number(process.env.BASELINE_WATCHERS ?? 1_000);
/** Which cases run: `burst`, `paced` or both (comma-separated); `BASELINE=0` skips the baselines. */
const CASES = new Set((process.env.CASES ?? 'burst,paced').split(','));
const BASELINE = process.env.BASELINE !== '0';
const P = '/core/configmaps/';

const enc = new TextEncoder();
const dec = new TextDecoder();
const value = (i: number) =>
  enc.encode(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `cm-${i}`,
        namespace: 'default',
        uid: `uid-${i}`,
        labels: { app: 'bench', n: String(i % 10) },
      },
      data: { key: 'x'.repeat(200) },
    }),
  );
function decode(kv: KeyValue): ApiObject {
  const o = JSON.parse(dec.decode(kv.value)) as ApiObject;
  (o.metadata as { resourceVersion?: string }).resourceVersion = String(kv.modRevision);
  return o;
}

/** Latency histogram in 10 µs buckets up to 10 s. */
class Histogram {
  private readonly buckets = new Uint32Array(1_000_000);
  count = 0;
  add(ms: number): void {
    const b = Math.min(this.buckets.length - 1, Math.max(0, Math.floor(ms * 100)));
    this.buckets[b] = (this.buckets[b] as number) + 1;
    this.count++;
  }
  quantile(q: number): number {
    const target = Math.ceil(this.count * q);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] as number;
      if (seen >= target) return (i + 1) / 100;
    }
    return Number.NaN;
  }
}

interface Result {
  deliveries: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU seconds (user + system) the process spent meanwhile: steadier than wall time on a loaded machine. */
  cpu: number;
}

const cpuSince = (start: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1e6;
};

async function writeAll(store: Store, sent: Float64Array, paceMs: number): Promise<void> {
  for (let i = 0; i < EVENTS; i++) {
    const kv = await store.create(`${P}default/cm-${i}`, value(i));
    sent[kv.modRevision] = performance.now();
    if (paceMs > 0) await new Promise((r) => setTimeout(r, paceMs));
  }
}

async function runCache(paceMs: number): Promise<Result> {
  const store = createMemoryStore();
  const cache = createWatchCache(store, {
    prefix: P,
    decode,
    bookmarkIntervalMs: 0,
    watcherBufferSize: EVENTS * 2,
  });
  await cache.ready();
  const sent = new Float64Array(EVENTS + 2);
  const hist = new Histogram();
  let delivered = 0;
  const watchers = await Promise.all(
    Array.from({ length: WATCHERS }, () => cache.watch({ start: { kind: 'Exact', revision: 0 } })),
  );
  const done = watchers.map(
    (w) =>
      new Promise<void>((resolve, reject) => {
        let n = 0;
        w.listen(
          (batch) => {
            const now = performance.now();
            for (const ev of batch) hist.add(now - (sent[ev.revision] as number));
            delivered += batch.length;
            n += batch.length;
            if (n >= EVENTS) {
              w.close();
              resolve();
            }
          },
          () =>
            n >= EVENTS ? resolve() : reject(new Error(`watcher ended early: ${w.closeReason?.message}`)),
        );
      }),
  );
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await writeAll(store, sent, paceMs);
  await Promise.all(done);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSince(c0);
  await cache.stop();
  await store.close();
  return { deliveries: delivered, seconds, p50: hist.quantile(0.5), p99: hist.quantile(0.99), cpu };
}

async function runBaseline(paceMs: number): Promise<Result> {
  const store = createMemoryStore();
  const sent = new Float64Array(EVENTS + 2);
  const hist = new Histogram();
  let delivered = 0;
  const abort = new AbortController();
  setMaxListeners(BASELINE_WATCHERS + 10, abort.signal);
  const done = Array.from({ length: BASELINE_WATCHERS }, async () => {
    let n = 0;
    for await (const kv of store.watch(P, { fromRevision: 0, signal: abort.signal })) {
      decode(kv.kv);
      hist.add(performance.now() - (sent[kv.revision] as number));
      delivered++;
      if (++n === EVENTS) break;
    }
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await writeAll(store, sent, paceMs);
  await Promise.all(done);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSince(c0);
  abort.abort();
  await store.close();
  return { deliveries: delivered, seconds, p50: hist.quantile(0.5), p99: hist.quantile(0.99), cpu };
}

function report(name: string, r: Result): void {
  const rate = r.deliveries / r.seconds;
  console.log(
    `${name.padEnd(58)} ${String(r.deliveries).padStart(9)} deliveries in ${r.seconds.toFixed(2)} s = ${(rate / 1e6).toFixed(2)} M events/s; latency p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms; CPU ${r.cpu.toFixed(2)} s`,
  );
}

console.log(`fan-out: ${WATCHERS} watchers × ${EVENTS} events (node ${process.version})`);
for (const [name, paceMs] of [
  ['burst', 0],
  ['paced 2 ms', 2],
] as const) {
  if (!CASES.has(name.split(' ')[0] as string)) continue;
  if (BASELINE)
    report(
      `baseline: ${BASELINE_WATCHERS} store watches, each decoding (${name})`,
      await runBaseline(paceMs),
    );
  report(`watch cache: ${WATCHERS} watchers (${name})`, await runCache(paceMs));
}
