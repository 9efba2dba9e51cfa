/**
 * (c) Memory per cached object: heap growth of a watch cache holding N ConfigMaps (~450 bytes of
 * JSON each, the same fixture as list.bench.ts), measured after a forced GC; baseline in the same run:
 * the serialized bytes themselves and the same objects decoded into a plain Map (what any cache of
 * decoded objects must hold). Also the cost of the event window: 10 000 updates kept in the window.
 *
 *   npx tsx packages/watch-cache/bench/memory.bench.ts
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMemoryStore } from '@orchard/store';
import { createWatchCache } from '../src/index.js';
import { decode, P, value } from './fixture.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const N = Number(process.env.OBJECTS ?? 20_000);

function heap(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const store = createMemoryStore();
let bytes = 0;
for (let i = 0; i < N; i++) {
  const v = value(i);
  bytes += v.length;
  await store.create(`${P}default/cm-${String(i).padStart(5, '0')}`, v);
}

let h0 = heap();
const cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
await cache.ready();
const cacheBytes = heap() - h0;
if (cache.stats().objects !== N) throw new Error(`cache holds ${cache.stats().objects} objects`);

// Baseline: the same objects decoded into a plain Map (measured in a function scope, then dropped).
async function plainMapBytes(): Promise<number> {
  const kvs = (await store.list(P)).kvs;
  const before = heap();
  const plain = new Map(kvs.map((kv) => [kv.key, decode(kv)]));
  const after = heap();
  if (plain.size !== N) throw new Error('baseline incomplete');
  return after - before;
}
const plainBytes = await plainMapBytes();

// The window: 10 000 updates kept as events (each holds the new and the previous object).
const UPDATES = 10_000;
h0 = heap();
for (let i = 0; i < UPDATES; i++) {
  const k = i % N;
  await store.update(`${P}default/cm-${String(k).padStart(5, '0')}`, () => value(k, i % 2 ? 'y' : 'z'));
}
for (let i = 0; i < 100 && cache.stats().windowEvents < UPDATES; i++)
  await new Promise((r) => setTimeout(r, 10));
const windowBytes = heap() - h0;

const per = (b: number, n: number) => `${(b / n).toFixed(0)} B`;
console.log(`memory: ${N} ConfigMaps, ${per(bytes, N)} serialized on average (node ${process.version})`);
console.log(`baseline: decoded objects in a plain Map       ${per(plainBytes, N)} per object`);
console.log(`watch cache: current state (objects + index)   ${per(cacheBytes, N)} per object`);
console.log(`watch cache: window, per event (${UPDATES} updates)  ${per(windowBytes, UPDATES)} per event`);
await cache.stop();
await store.close();
