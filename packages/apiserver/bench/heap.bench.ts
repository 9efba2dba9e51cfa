/**
 * Heap per stored ConfigMap (issue 18 targets): the reference server (memory store, watch cache)
 * in a fresh process per round, one ConfigMap created over HTTP as a client would (so the stored
 * JSON has what a real one has: uid, timestamps, managedFields), then N copies of it (new name and
 * uid each, timestamps as if created at 100 per second) put straight into the store, the watch cache caught up by a consistent LIST, and the
 * heap (V8 heap plus ArrayBuffers) measured after a forced GC before and after. Two servers per
 * round: one measured right after the fill (the store's history since compaction and the cache's
 * 5-minute window still hold every create), one in the steady state the server reaches once that
 * history has passed (store compacted, window expired). Reported: heap bytes per object against the
 * JSON bytes stored per object (the baseline: what any store of these objects must hold), and the
 * part the memory store alone holds (the same bytes put into a bare memory store in the same
 * process, compacted), over three rounds (min/median/max).
 *
 * Run: `pnpm bench apiserver/heap` (`OBJECTS=100000`, `ROUNDS=3`).
 */
import { fork } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const objects = Number(process.env.OBJECTS ?? 100_000);
const rounds = Number(process.env.ROUNDS ?? 3);

interface Round {
  /** Heap per object right after the fill: the store's history and the cache's window hold every create. */
  heapPerObject: number;
  /** The same once that history is gone (the store compacted, the cache's window expired). */
  steadyPerObject: number;
  storePerObject: number;
  jsonPerObject: number;
  rssMb: number;
  steadyRssMb: number;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  for (let i = 0; i < 3; i++) gc();
  // The stored bytes live in ArrayBuffers, outside the V8 heap proper: count both.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One server filled with `objects` ConfigMaps; heap per object measured after the fill. `steady`:
 * the watch cache's window is 1 s instead of 5 minutes, and after the fill the store is compacted
 * (what the server's compactor does one interval later) and the window left to expire (one more
 * write evicts it), so what is measured is what the server holds for the objects alone.
 */
async function fill(steady: boolean) {
  const { createApiServer } = await import('../src/index.js');
  const api = createApiServer(steady ? { watchCache: { windowMs: 1000 } } : {});
  const { url } = await api.listen(0);
  await api.ready;
  const cms = `${url}/api/v1/namespaces/default/configmaps`;
  const create = (name: string) =>
    fetch(cms, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels: { app: 'bench', tier: 'web' } },
        data: { 'app.properties': 'color=blue\nsize=10\n', mode: 'fast' },
      }),
    });
  const post = await create('template');
  if (post.status !== 201) throw new Error(`template create: ${post.status}`);
  const template = (await post.json()) as { metadata: Record<string, unknown> };
  // The cache of config maps exists from the first list on.
  await (await fetch(`${cms}?limit=1`)).arrayBuffer();
  const before = heap();
  const encoder = new TextEncoder();
  let json = 0;
  const created = Date.parse(String(template.metadata.creationTimestamp));
  const managed = template.metadata.managedFields as Record<string, unknown>[];
  for (let i = 0; i < objects; i++) {
    const name = `cm-${String(i).padStart(6, '0')}`;
    // Timestamps as if created at 100 objects per second (copies do not all share one second).
    const time = new Date(created + Math.floor(i / 100) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const obj = {
      ...template,
      metadata: {
        ...template.metadata,
        name,
        uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        creationTimestamp: time,
        managedFields: managed.map((m) => ({ ...m, time })),
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
  if (steady) {
    await api.storage.compact(await api.storage.currentRevision());
    // The window expires after 1 s; the memory store packs what compaction passed in the background
    // (a batch per turn of the event loop, ~2 s here while the controllers still catch up on the fill).
    await sleep(5000);
    // One more write: the cache drops the window's expired events as it applies it.
    if ((await create('after-window')).status !== 201) throw new Error('create after the window failed');
  }
  const after = heap();
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const kvs = (await api.storage.list('/core/configmaps/default/cm-')).kvs;
  await api.close();
  return { perObject: (after - before) / objects, json: json / objects, rssMb, kvs };
}

async function measure(): Promise<Round> {
  const full = await fill(false);
  full.kvs = [];
  const steady = await fill(true);
  // The memory store alone, holding copies of the same bytes, compacted.
  const { createMemoryStore } = await import('@orchard/store');
  const storeBefore = heap();
  const bare = createMemoryStore();
  for (const kv of steady.kvs) await bare.create(kv.key, new Uint8Array(kv.value));
  await bare.compact(await bare.currentRevision());
  await sleep(2000);
  const storeAfter = heap();
  await bare.close();
  return {
    heapPerObject: full.perObject,
    steadyPerObject: steady.perObject,
    storePerObject: (storeAfter - storeBefore) / objects,
    jsonPerObject: full.json,
    rssMb: full.rssMb,
    steadyRssMb: steady.rssMb,
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
    const x = (b: number) => `${b.toFixed(0)} B (${(b / res.jsonPerObject).toFixed(2)}x)`;
    console.log(
      `  round ${r + 1}: JSON ${res.jsonPerObject.toFixed(0)} B per object; heap per object with the history of the fill ${x(res.heapPerObject)}, RSS ${res.rssMb.toFixed(0)} MB; steady (history compacted, window expired) ${x(res.steadyPerObject)}, RSS ${res.steadyRssMb.toFixed(0)} MB; the memory store alone ${x(res.storePerObject)}`,
    );
    results.push(res);
  }
  const mid = Math.floor(rounds / 2);
  const spread = (pick: (x: Round) => number) => {
    const v = results.map(pick).sort((a, b) => a - b);
    const json = results[0]?.jsonPerObject ?? 1;
    return `${v.map((b) => b.toFixed(0)).join(' / ')} B → heap / JSON ${[v[0], v[mid], v[rounds - 1]].map((b) => ((b ?? 0) / json).toFixed(2)).join(' / ')}x`;
  };
  console.log(`min / median / max per object, with the fill's history: ${spread((x) => x.heapPerObject)}`);
  console.log(`min / median / max per object, steady: ${spread((x) => x.steadyPerObject)}`);
}
