/** @orchard/store-etcd/testing — start and stop real etcd members on loopback for tests and benchmarks. */
export type { EtcdCluster, EtcdClusterOptions, EtcdMember, EtcdTlsMaterial } from './etcd-cluster.js';
export { etcdAvailable, etcdBinary, startEtcdCluster } from './etcd-cluster.js';
