import { runStoreConformance } from '@orchard/store/testing';
import { afterAll, beforeAll, describe } from 'vitest';
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
