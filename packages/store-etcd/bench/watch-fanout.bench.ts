// `pnpm bench store-etcd/watch-fanout`: what each open watch adds to a create's CPU in the process
// holding the Store (one etcd 3.4 member on tmpfs): 3,000 creates at 64 in flight with 0, 1 and 9
// watches over the whole prefix (a server runs ~9: a watch cache per resource and the lifecycle
// controllers), the CPU of this process (process.cpuUsage) per create until every watch has seen every
// event, in rounds that alternate the order.
import { createEtcdStore } from '../src/index.js';
import { startEtcdCluster } from '../src/testing/index.js';

const n = 3000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const watchCounts = [0, 1, 9];
const value = Buffer.from(
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'x'.repeat(400) } }),
);

const cluster = await startEtcdCluster({ members: 1 });
/** CPU µs per create of `n` creates with `watchers` watches open on the store. */
async function run(watchers: number, round: number): Promise<number> {
  const store = createEtcdStore({ endpoints: cluster.endpoints, prefix: `/fanout-${watchers}-${round}` });
  const from = await store.currentRevision();
  const ac = new AbortController();
  const seen = Array.from({ length: watchers }, async () => {
    let count = 0;
    for await (const _ of store.watch('/', { fromRevision: from, signal: ac.signal }))
      if (++count >= n) break;
    if (count < n) throw new Error(`a watch saw ${count} of ${n} events`);
  });
  const c0 = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < n) await store.create(`/cm/${next++}`, value);
    }),
  );
  await Promise.all(seen);
  const c = process.cpuUsage(c0);
  ac.abort();
  await store.close();
  return (c.user + c.system) / n;
}
try {
  for (const w of watchCounts) await run(w, -1); // warm-up
  const cpu = new Map<number, number[]>(watchCounts.map((w) => [w, []]));
  for (let r = 0; r < rounds; r++)
    for (const w of r % 2 ? [...watchCounts].reverse() : watchCounts) cpu.get(w)!.push(await run(w, r));
  console.log(
    `one etcd 3.4 member on tmpfs; ${n} creates of ${value.length} B, 64 in flight, ${rounds} rounds`,
  );
  for (const [w, xs] of cpu) {
    const s = [...xs].sort((a, b) => a - b);
    console.log(
      `${w} watches: CPU per create min / median / max ${Math.round(s[0]!)} / ${Math.round(s[Math.floor(s.length / 2)]!)} / ${Math.round(s.at(-1)!)} µs`,
    );
  }
} finally {
  await cluster.stop();
}
