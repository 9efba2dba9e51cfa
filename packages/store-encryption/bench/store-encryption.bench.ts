// `pnpm bench store-encryption`: the cost of encryption at rest at the Store level, one run so the
// figures are ratios: creates/s (concurrency 64) and a list of 1,000 through the memory Store bare
// (baseline), through the transforming wrapper with identity (the wrapper's own cost), and with
// aesgcm, aescbc and secretbox, on a ~1 KiB Secret. The API-level figure (Secret creates through the
// reference server, aesgcm vs none) is `pnpm bench apiserver` (encryption.bench.ts).
import { randomBytes } from 'node:crypto';
import { createMemoryStore, type Store } from '@orchard/store';
import {
  createPrefixTransformers,
  createTransformingStore,
  identityTransformer,
  keyTransformer,
  type ValueTransformer,
} from '../src/index.js';

const value = new TextEncoder().encode(
  JSON.stringify({
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: { name: 'x' },
    data: { a: 'eA=='.repeat(240) },
  }),
);
const n = 20_000;
const concurrency = 64;
const listSize = 1000;
const listRuns = 50;

async function measure(make: () => Store): Promise<{ creates: number; listMs: number }> {
  const store = make();
  const start = performance.now();
  for (let i = 0; i < n; i += concurrency) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(n, i + concurrency); j++)
      batch.push(store.create(`/core/secrets/default/${String(j).padStart(6, '0')}`, value));
    await Promise.all(batch);
  }
  const creates = n / ((performance.now() - start) / 1000);
  const t = performance.now();
  let bytes = 0;
  for (let r = 0; r < listRuns; r++) {
    // Values are decrypted when read: read them all, as the server's decoder does.
    for (const kv of (await store.list('/core/secrets/default/', { limit: listSize })).kvs)
      bytes += kv.value.byteLength;
  }
  if (bytes !== listRuns * listSize * value.byteLength) throw new Error('a list lost values');
  const listMs = (performance.now() - t) / listRuns;
  await store.close();
  return { creates, listMs };
}

const wrap = (t: ValueTransformer) => () => createTransformingStore(createMemoryStore(), () => t);
const keyed = (provider: 'aesgcm' | 'aescbc' | 'secretbox') =>
  createPrefixTransformers(
    [
      {
        prefix: new TextEncoder().encode(`k8s:enc:${provider}:v1:key1:`),
        transformer: keyTransformer(provider, randomBytes(32)),
      },
    ],
    'no matching prefix found',
  );

const cases: [string, () => Store][] = [
  ['memory Store, bare (baseline)', () => createMemoryStore()],
  ['wrapper + identity', wrap(identityTransformer())],
  ['wrapper + aesgcm (32-byte key)', wrap(keyed('aesgcm'))],
  ['wrapper + aescbc (32-byte key)', wrap(keyed('aescbc'))],
  ['wrapper + secretbox', wrap(keyed('secretbox'))],
];
// One warm-up pass so the JIT has seen every path.
for (const [, make] of cases) await measure(make);
const rows: string[] = [];
let base = { creates: 0, listMs: 0 };
for (const [name, make] of cases) {
  const r = await measure(make);
  if (base.creates === 0) base = r;
  rows.push(
    `| ${name} | ${Math.round(r.creates).toLocaleString('en')} | ${(r.creates / base.creates).toFixed(2)}× | ${r.listMs.toFixed(2)} ms | ${(r.listMs / base.listMs).toFixed(2)}× |`,
  );
}
console.log(
  `Store level, ${n} creates of a ${value.byteLength}-byte Secret at concurrency ${concurrency}; list of ${listSize}:\n`,
);
console.log('| path | creates/s | vs bare | list of 1,000 | vs bare |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
