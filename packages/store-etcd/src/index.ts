/**
 * @orchard/store-etcd — the Store on etcd v3 for several servers sharing one cluster: keys under a
 * prefix (`/registry` by default, as upstream), resourceVersion = etcd's mod revision, CAS through
 * transactions, watch with prev_kv and progress notifications, etcd compaction, TLS and user/password
 * auth. It passes `runStoreConformance()` against a real etcd 3.4. `@orchard/store-etcd/testing`
 * starts real etcd members for tests.
 */

export type { EtcdStore, EtcdStoreOptions } from './etcd-store.js';
export { createEtcdStore, defaultEtcdStoreOptions } from './etcd-store.js';
