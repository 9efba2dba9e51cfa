import type { StoreEvent } from '@orchard/store';
import { runStoreConformance } from '@orchard/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEtcdStore, type EtcdStore } from './etcd-store.js';
import { type EtcdCluster, etcdAvailable, etcdBinary, startEtcdCluster } from './testing/etcd-cluster.js';

// Skipped only without an etcd binary (`.ci/run` installs Debian's etcd-server, so CI always runs it).
const have = etcdAvailable();
let cluster: EtcdCluster | undefined;
let n = 0;
const prefixes = new WeakMap<object, string>();

beforeAll(async () => {
  if (have) cluster = await startEtcdCluster({ members: 1 });
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

function open(prefix: string): EtcdStore {
  const store = createEtcdStore({ endpoints: cluster!.endpoints, prefix });
  prefixes.set(store, prefix);
  return store;
}

/** The watchers etcd holds right now (its own gauge). */
async function etcdWatchers(): Promise<number> {
  const text = await (await fetch(`${cluster!.endpoints[0]}/metrics`)).text();
  return Number(/^etcd_debugging_mvcc_watcher_total (\d+)/m.exec(text)?.[1]);
}

/** etcd's watcher count once it is `want` (cancelled streams end asynchronously), or after 10 s. */
async function watchersSettleAt(want: number): Promise<number> {
  let now = await etcdWatchers();
  for (let i = 0; i < 100 && now !== want; i++) {
    await new Promise((r) => setTimeout(r, 100));
    now = await etcdWatchers();
  }
  return now;
}

/** Takes `count` events of a watch (bounded by the test's timeout). */
async function take(it: AsyncIterator<StoreEvent>, count: number): Promise<string[]> {
  const keys: string[] = [];
  while (keys.length < count) {
    const r = await it.next();
    if (r.done) throw new Error(`the watch ended after ${keys.join(', ')}`);
    keys.push(`${r.value.kv.key}@${r.value.revision}`);
  }
  return keys;
}

// First in the file, while no other store holds a watch: etcd's watcher gauge counts only these.
describe.skipIf(!have)('etcd store watches share streams', () => {
  it('watches of one prefix share one etcd watch from any revision the stream can replay; older ones get their own until they catch up', async () => {
    const store = open('/shared-watch');
    const enc = new TextEncoder();
    const ac = new AbortController();
    try {
      const before = await etcdWatchers();
      const k1 = await store.create('/a/k1', enc.encode('1'));
      const k2 = await store.create('/a/k2', enc.encode('2'));
      const first = store
        .watch('/a/', { fromRevision: k1.modRevision - 1, signal: ac.signal })
        [Symbol.asyncIterator]();
      expect(await take(first, 2)).toEqual([`/a/k1@${k1.modRevision}`, `/a/k2@${k2.modRevision}`]);
      // Joins the first one's stream: replayed from what it has delivered, then live.
      const second = store
        .watch('/a/', { fromRevision: k1.modRevision, signal: ac.signal })
        [Symbol.asyncIterator]();
      const third = store
        .watch('/a/', { fromRevision: k2.modRevision, signal: ac.signal })
        [Symbol.asyncIterator]();
      const k3 = await store.create('/a/k3', enc.encode('3'));
      await store.create('/b/other', enc.encode('x'));
      expect(await take(second, 2)).toEqual([`/a/k2@${k2.modRevision}`, `/a/k3@${k3.modRevision}`]);
      expect(await take(third, 1)).toEqual([`/a/k3@${k3.modRevision}`]);
      expect(await take(first, 1)).toEqual([`/a/k3@${k3.modRevision}`]);
      expect((await etcdWatchers()) - before).toBe(1);
      // Older than anything the shared stream saw: a stream of its own, from etcd's history.
      const older = store
        .watch('/a/', { fromRevision: k1.modRevision - 2, signal: ac.signal })
        [Symbol.asyncIterator]();
      expect(await take(older, 3)).toEqual([
        `/a/k1@${k1.modRevision}`,
        `/a/k2@${k2.modRevision}`,
        `/a/k3@${k3.modRevision}`,
      ]);
      expect((await etcdWatchers()) - before).toBe(2);
      // One watch ending leaves the others running on the shared stream.
      await second.return?.();
      const k4 = await store.create('/a/k4', enc.encode('4'));
      for (const w of [first, third, older]) expect(await take(w, 1)).toEqual([`/a/k4@${k4.modRevision}`]);
      // Both streams delivered k4 last: the one that saw it second took the other's watches over.
      expect(await watchersSettleAt(before + 1)).toBe(before + 1);
      const k5 = await store.create('/a/k5', enc.encode('5'));
      for (const w of [first, third, older]) expect(await take(w, 1)).toEqual([`/a/k5@${k5.modRevision}`]);
      ac.abort();
      for (const w of [first, third, older]) expect((await w.next()).done).toBe(true);
      expect(await watchersSettleAt(before)).toBe(before);
    } finally {
      ac.abort();
      await store.close();
    }
  }, 60_000);
});

describe.skipIf(!have)(
  have ? 'etcd store on one member' : `etcd store (skipped: no etcd binary at ${etcdBinary})`,
  () => {
    runStoreConformance('etcd (one member)', () => open(`/conformance-${n++}`), {
      // 100k creates through raft take about a minute on a loaded 2-core machine.
      heavyTimeoutMs: 240_000,
      durability: { durable: true, reopen: async (closed) => open(prefixes.get(closed)!) },
    });
  },
);
