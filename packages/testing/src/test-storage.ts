import { isStorageBackend, type StorageBackend, storageBackends } from '@orchard/apiserver';

/** The backend `startTestServer` uses without `storage`: `ORCHARD_TEST_STORAGE`, else `memory`. */
export function testStorageBackend(): StorageBackend {
  const env = process.env.ORCHARD_TEST_STORAGE;
  if (env === undefined || env === '') return 'memory';
  if (!isStorageBackend(env))
    throw new Error(`ORCHARD_TEST_STORAGE=${env} is not a storage backend (${storageBackends.join(', ')})`);
  return env;
}

/** A one-member etcd for one test server (loaded only when the etcd backend is chosen). */
export async function startOwnEtcd(): Promise<{ endpoints: string[]; stop(): Promise<void> }> {
  const { etcdAvailable, etcdBinary, startEtcdCluster } = await import('@orchard/store-etcd/testing');
  if (!etcdAvailable())
    throw new Error(
      `storage etcd needs an etcd binary at ${etcdBinary} (Debian etcd-server; .ci/run installs it)`,
    );
  return startEtcdCluster({ members: 1 });
}
