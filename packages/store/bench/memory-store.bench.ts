/**
 * Memory-store writes as the store grows: the cost of a create at 1k, 10k and 100k keys with the
 * B+ tree key index, against the sorted array with a binary-searched splice it replaced (baseline,
 * measured in the same run on the same keys). The ratio is what matters on this shared machine.
 *
 *   node --import tsx packages/store/bench/memory-store.bench.ts
 */

import { createMemoryStore } from '../src/memory-store.js';
import { OrderedIndex } from '../src/ordered-index.js';

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Random names, as generateName gives: inserts land anywhere in the order.
const keyOf = (i: number) => `/core/configmaps/default/cm-${((i * 2654435761) >>> 0).toString(36)}-${i}`;

function timeInserts(size: number, insert: (k: string) => void, prefill: (k: string) => void): number {
  for (let i = 0; i < size; i++) prefill(keyOf(i));
  const n = 2000;
  const t0 = performance.now();
  for (let i = size; i < size + n; i++) insert(keyOf(i));
  return ((performance.now() - t0) * 1000) / n; // µs per insert
}

console.log('key index insert cost (µs per insert, 2,000 inserts after prefill)');
for (const size of [1_000, 10_000, 100_000]) {
  const sorted: string[] = [];
  const arrayInsert = (k: string) => sorted.splice(lowerBound(sorted, k), 0, k);
  const array = timeInserts(size, arrayInsert, arrayInsert);
  const tree = new OrderedIndex<undefined>();
  const btree = timeInserts(
    size,
    (k) => tree.set(k, undefined),
    (k) => tree.set(k, undefined),
  );
  console.log(
    `  ${String(size).padStart(7)} keys: sorted array ${array.toFixed(2)} µs, B+ tree ${btree.toFixed(2)} µs (${(array / btree).toFixed(1)}× faster)`,
  );
}

console.log('store create throughput (creates/s) as the store grows');
const store = createMemoryStore();
const value = new Uint8Array(200);
let created = 0;
for (const size of [1_000, 10_000, 100_000]) {
  while (created < size) await store.create(keyOf(created++), value);
  const n = 5000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await store.create(keyOf(created++), value);
  console.log(
    `  at ${String(size).padStart(7)} keys: ${Math.round(n / ((performance.now() - t0) / 1000))} creates/s`,
  );
}
await store.close();
