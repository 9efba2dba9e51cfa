/**
 * (b) List 10 000 objects (ConfigMaps of ~450 bytes JSON): from the watch cache, whole and in pages of
 * 500, versus the same list straight from the store (memory backend) decoding every value — the
 * baseline, measured in the same run. "+ encode" variants also serialize the response body as the
 * server does. Paged reads at an older snapshot (100 writes later) exercise the Exact rebuild.
 *
 *   npx tsx packages/watch-cache/bench/list.bench.ts
 */
import type { ApiObject } from '@orchard/meta';
import { createMemoryStore, type KeyValue } from '@orchard/store';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { createWatchCache } from '../src/index.js';
import { decode, P, value } from './fixture.js';

const N = 10_000;
const PAGE = 500;

const store = createMemoryStore();
for (let i = 0; i < N; i++) await store.create(`${P}default/cm-${String(i).padStart(5, '0')}`, value(i));
const cache = createWatchCache(store, { prefix: P, decode, bookmarkIntervalMs: 0 });
await cache.ready();
const snapshot = cache.revision;
for (let i = 0; i < 100; i++)
  await store.update(`${P}default/cm-${String(i * 7).padStart(5, '0')}`, () => value(i * 7, 'y'));
await new Promise((r) => setTimeout(r, 50));

async function storeWhole(): Promise<ApiObject[]> {
  const r = await store.list(P);
  return r.kvs.map(decode);
}
async function storePages(at?: number): Promise<number> {
  let n = 0;
  let startKey: string | undefined;
  let rev = at;
  for (;;) {
    const r = await store.list(P, {
      limit: PAGE,
      ...(rev ? { atRevision: rev } : {}),
      ...(startKey ? { startKey } : {}),
    });
    rev = r.revision;
    n += r.kvs.map(decode).length;
    if (r.remaining === 0) return n;
    startKey = `${(r.kvs.at(-1) as KeyValue).key}\x00`;
  }
}
async function cachePages(first: 'Any' | number): Promise<number> {
  let n = 0;
  let startKey: string | undefined;
  let res = await cache.list({
    revision: first === 'Any' ? { kind: 'Any' } : { kind: 'Exact', revision: first },
    limit: PAGE,
  });
  for (;;) {
    n += res.items.length;
    startKey = res.nextKey;
    if (!startKey) return n;
    res = await cache.list({ revision: { kind: 'Exact', revision: res.revision }, limit: PAGE, startKey });
  }
}

// Same answers, so the figures compare like with like.
if (
  (await storeWhole()).length !== N ||
  (await cache.list({ revision: { kind: 'Any' } })).items.length !== N
) {
  throw new Error('lists disagree');
}
if ((await storePages()) !== N || (await cachePages('Any')) !== N || (await cachePages(snapshot)) !== N) {
  throw new Error('paged lists disagree');
}

summary(() => {
  bench('baseline: store list 10k + decode', async () => do_not_optimize(await storeWhole()));
  bench('watch cache: list 10k (Any)', async () =>
    do_not_optimize(await cache.list({ revision: { kind: 'Any' } })),
  );
  bench('watch cache: list 10k (Most Recent, consistent)', async () => do_not_optimize(await cache.list({})));
});
summary(() => {
  bench('baseline: store list 10k + decode + encode', async () =>
    do_not_optimize(JSON.stringify(await storeWhole())),
  );
  bench('watch cache: list 10k + encode', async () =>
    do_not_optimize(JSON.stringify((await cache.list({ revision: { kind: 'Any' } })).items)),
  );
});
summary(() => {
  bench('baseline: store 20 pages of 500 + decode', async () => do_not_optimize(await storePages()));
  bench('watch cache: 20 pages of 500', async () => do_not_optimize(await cachePages('Any')));
});
summary(() => {
  bench('baseline: store 20 pages of 500 at an older snapshot + decode', async () =>
    do_not_optimize(await storePages(snapshot)),
  );
  bench('watch cache: 20 pages of 500 at an older snapshot (Exact rebuild)', async () =>
    do_not_optimize(await cachePages(snapshot)),
  );
});

await run();
await cache.stop();
await store.close();
