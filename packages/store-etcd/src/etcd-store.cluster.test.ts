import { isStoreError, type StoreEvent } from '@orchard/store';
import { runStoreConformance } from '@orchard/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEtcdStore, type EtcdStore } from './etcd-store.js';
import { type EtcdCluster, etcdAvailable, etcdBinary, startEtcdCluster } from './testing/etcd-cluster.js';

// A three-member cluster: the conformance suite again, then members lost under a running store.
// Skipped only without an etcd binary (`.ci/run` installs Debian's etcd-server).
const have = etcdAvailable();
let cluster: EtcdCluster | undefined;
let n = 0;
const prefixes = new WeakMap<object, string>();
const enc = new TextEncoder();

beforeAll(async () => {
  if (have) cluster = await startEtcdCluster({ members: 3 });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

function open(prefix: string, requestTimeoutMs = 10_000): EtcdStore {
  const store = createEtcdStore({ endpoints: cluster!.endpoints, prefix, requestTimeoutMs });
  prefixes.set(store, prefix);
  return store;
}

describe.skipIf(!have)(
  have
    ? 'etcd store on three members'
    : `etcd store, three members (skipped: no etcd binary at ${etcdBinary})`,
  () => {
    runStoreConformance('etcd (three members)', () => open(`/conformance3-${n++}`), {
      // The 100k-key run is on one member (etcd-store.test.ts); through three-way raft it takes minutes.
      manyKeys: 10_000,
      heavyTimeoutMs: 240_000,
      durability: { durable: true, reopen: async (closed) => open(prefixes.get(closed)!) },
    });

    it('one member of three killed: reads, writes and an open watch go on without a gap; the member rejoins', async () => {
      const st = open('/ha');
      const start = await st.currentRevision();
      const ac = new AbortController();
      const seen: StoreEvent[] = [];
      const watching = (async () => {
        for await (const e of st.watch('/ha/', { fromRevision: start, signal: ac.signal })) seen.push(e);
      })();
      const written: number[] = [];
      for (let i = 0; i < 20; i++)
        written.push((await st.create(`/ha/a${i}`, enc.encode(String(i)))).modRevision);
      await cluster!.kill(1);
      try {
        for (let i = 0; i < 20; i++) {
          // A call routed to the dead member fails once; the store skips it afterwards.
          let kv: { modRevision: number } | undefined;
          for (let attempt = 0; attempt < 5 && !kv; attempt++) {
            try {
              kv = await st.create(`/ha/b${i}`, enc.encode(String(i)));
            } catch (e) {
              expect(isStoreError(e, 'Unavailable')).toBe(true);
              // Retry only if the first attempt did not commit (a create is not idempotent).
              const got = await st.get(`/ha/b${i}`).catch(() => undefined);
              if (got?.kv) kv = got.kv;
            }
          }
          expect(kv).toBeDefined();
          written.push(kv!.modRevision);
        }
        expect((await st.list('/ha/')).kvs.length).toBe(40);
      } finally {
        await cluster!.start(1);
      }
      const deadline = Date.now() + 20_000;
      while (seen.length < written.length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      ac.abort();
      await watching;
      expect(seen.map((e) => e.revision)).toEqual(written);
      await st.close();
    }, 90_000);

    it('no quorum (two of three killed): calls fail with Unavailable within the deadline; all recover when they return', async () => {
      const st = open('/noquorum', 2_000);
      await st.create('/noquorum/k', enc.encode('1'));
      await cluster!.kill(0);
      await cluster!.kill(2);
      try {
        const err = await st.create('/noquorum/x', enc.encode('x')).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isStoreError(err, 'Unavailable'), String(err)).toBe(true);
        const t0 = Date.now();
        const health = await st.health().then(
          () => `ok after ${Date.now() - t0} ms`,
          (e: unknown) => e,
        );
        expect(isStoreError(health, 'Unavailable'), String(health)).toBe(true);
      } finally {
        await Promise.all([cluster!.start(0), cluster!.start(2)]);
      }
      // Bounded: members rejoin and elect a leader within seconds.
      let last: unknown;
      let value: string | undefined;
      for (let i = 0; i < 100 && value === undefined; i++) {
        try {
          const kv = (await st.get('/noquorum/k')).kv;
          value = kv ? new TextDecoder().decode(kv.value) : 'missing';
        } catch (e) {
          last = e;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      expect(value, String(last)).toBe('1');
      expect(await st.health().then(() => 'ok', String)).toBe('ok');
      await st.close();
    }, 90_000);
  },
);
