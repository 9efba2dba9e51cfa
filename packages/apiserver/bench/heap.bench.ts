/**
 * Heap per stored ConfigMap (issue 18 targets): the reference server (memory store, watch cache)
 * in a fresh process per round, one ConfigMap created over HTTP as a client would (so the stored
 * JSON has what a real one has: uid, timestamps, managedFields), then N copies of it (new name and
 * uid each) put straight into the store, the watch cache caught up by a consistent LIST, and the
 * heap (V8 heap plus ArrayBuffers) measured after a forced GC before and after. Reported: heap bytes per object against the
 * JSON bytes stored per object (the baseline: what any store of these objects must hold), and the
 * part of it the memory store alone holds (the same bytes put into a bare memory store in the same
 * process; the rest is the watch cache's decoded objects and indexes), over three rounds
 * (min/median/max).
 *
 * Run: `node --import tsx packages/apiserver/bench/heap.bench.ts` (`OBJECTS=100000`, `ROUNDS=3`).
 */
import { fork } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const objects = Number(process.env.OBJECTS ?? 100_000);
const rounds = Number(process.env.ROUNDS ?? 3);

interface Round {
  heapPerObject: number;
  storePerObject: number;
  jsonPerObject: number;
  rssMb: number;
}

async function measure(): Promise<Round> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = () => {
    for (let i = 0; i < 3; i++) gc();
    // The stored bytes live in ArrayBuffers, outside the V8 heap proper: count both.
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const { createApiServer } = await import('../src/index.js');
  const api = createApiServer();
  const { url } = await api.listen(0);
  await api.ready;
  const cms = `${url}/api/v1/namespaces/default/configmaps`;
  const post = await fetch(cms, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'template', labels: { app: 'bench', tier: 'web' } },
      data: { 'app.properties': 'color=blue\nsize=10\n', mode: 'fast' },
    }),
  });
  if (post.status !== 201) throw new Error(`template create: ${post.status}`);
  const template = (await post.json()) as { metadata: Record<string, unknown> };
  // The cache of config maps exists from the first list on.
  await (await fetch(`${cms}?limit=1`)).arrayBuffer();
  const before = heap();
  const encoder = new TextEncoder();
  let json = 0;
  for (let i = 0; i < objects; i++) {
    const name = `cm-${String(i).padStart(6, '0')}`;
    const obj = {
      ...template,
      metadata: {
        ...template.metadata,
        name,
        uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        resourceVersion: undefined,
      },
    };
    const bytes = encoder.encode(JSON.stringify(obj));
    json += bytes.length;
    await api.storage.create(`/core/configmaps/default/${name}`, bytes);
  }
  // A consistent list is served once the cache has every object (a new connection: the first one
  // idled past the server's keep-alive timeout during the fill).
  const list = await fetch(`${cms}?limit=1`, { headers: { connection: 'close' } }).catch(() =>
    fetch(`${cms}?limit=1`, { headers: { connection: 'close' } }),
  );
  const meta = ((await list.json()) as { metadata: { remainingItemCount?: number } }).metadata;
  if ((meta.remainingItemCount ?? 0) < objects)
    throw new Error(`cache holds ${meta.remainingItemCount} more`);
  const after = heap();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const kvs = (await api.storage.list('/core/configmaps/default/')).kvs;
  await api.close();
  // The memory store alone, holding copies of the same bytes.
  const { createMemoryStore } = await import('@orchard/store');
  const storeBefore = heap();
  const bare = createMemoryStore();
  for (const kv of kvs) await bare.create(kv.key, new Uint8Array(kv.value));
  const storeAfter = heap();
  await bare.close();
  return {
    heapPerObject: (after - before) / objects,
    storePerObject: (storeAfter - storeBefore) / objects,
    jsonPerObject: json / objects,
    rssMb,
  };
}

if (process.argv[2] === 'round') {
  process.send?.(await measure());
  process.exit(0);
} else {
  console.log(
    `heap per stored ConfigMap: ${objects} objects, ${rounds} rounds, a fresh server each (node ${process.version})`,
  );
  const results: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const child = fork(import.meta.filename, ['round'], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    });
    const res = await new Promise<Round>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Round));
      child.once('exit', (code) => code !== 0 && reject(new Error(`round exited with ${code}`)));
    });
    console.log(
      `  round ${r + 1}: heap ${res.heapPerObject.toFixed(0)} B per object, JSON ${res.jsonPerObject.toFixed(0)} B per object (${(res.heapPerObject / res.jsonPerObject).toFixed(2)}x; the memory store alone ${res.storePerObject.toFixed(0)} B), RSS ${res.rssMb.toFixed(0)} MB`,
    );
    results.push(res);
  }
  const ratios = results.map((x) => x.heapPerObject / x.jsonPerObject).sort((a, b) => a - b);
  const heaps = results.map((x) => x.heapPerObject).sort((a, b) => a - b);
  const mid = Math.floor(rounds / 2);
  console.log(
    `min / median / max: heap per object ${heaps[0]?.toFixed(0)} / ${heaps[mid]?.toFixed(0)} / ${heaps[rounds - 1]?.toFixed(0)} B; heap / JSON ${ratios[0]?.toFixed(2)} / ${ratios[mid]?.toFixed(2)} / ${ratios[rounds - 1]?.toFixed(2)}x`,
  );
}
