import { type ApiObject, type Flavor, newUid, nowRfc3339, type StoredObject } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import type { ObjectStore } from '../storage/object-store.js';
import type { LeaderElectionRecord, LeaseLock } from './leader-election.js';

/** The Lease the controllers' leader holds: `kube-controller-manager` / `orch-controller-manager`. */
export function controllerLeaseName(flavor: Flavor): string {
  return `${flavor.systemNamespace.replace(/-system$/, '')}-controller-manager`;
}

/** The record of a Lease object's spec; fields of the wrong type read as empty (a stranger wrote it). */
export function recordFromLease(lease: StoredObject | ApiObject): LeaderElectionRecord {
  const spec = isJsonObject(lease.spec) ? lease.spec : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0);
  return {
    holderIdentity: str(spec.holderIdentity),
    leaseDurationSeconds: int(spec.leaseDurationSeconds),
    acquireTime: str(spec.acquireTime),
    renewTime: str(spec.renewTime),
    leaseTransitions: int(spec.leaseTransitions),
  };
}

/**
 * The `leases` object `namespace/name` (coordination group of the flavor, v1) as a leader election
 * lock, read and written through the server's own object store (so it works on every backend):
 * updates are compare-and-swap on the resourceVersion the candidate read.
 */
export function createLeaseLock(
  objects: ObjectStore,
  flavor: Flavor,
  namespace: string,
  name: string,
): LeaseLock {
  const group = flavor.group('coordination');
  const key = objects.key({ group, resource: 'leases', namespace }, name);
  const spec = (r: LeaderElectionRecord) => ({
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime,
    renewTime: r.renewTime,
    leaseTransitions: r.leaseTransitions,
  });
  return {
    async get() {
      const { object } = await objects.get(key);
      if (object === undefined) return undefined;
      return { record: recordFromLease(object), resourceVersion: object.metadata.resourceVersion ?? '' };
    },
    async create(record) {
      const created = await objects.create(key, {
        apiVersion: `${group}/v1`,
        kind: 'Lease',
        metadata: { name, namespace, uid: newUid(), creationTimestamp: nowRfc3339() },
        spec: spec(record),
      });
      return created.metadata.resourceVersion ?? '';
    },
    async update(record, resourceVersion) {
      const expected = Number(resourceVersion);
      if (!Number.isSafeInteger(expected) || expected <= 0)
        throw new Error(`lease ${namespace}/${name}: no resourceVersion to update from`);
      const updated = await objects.update(key, (current) => ({ ...current, spec: spec(record) }), expected);
      return updated.metadata.resourceVersion ?? '';
    },
    describe: () => `${namespace}/${name}`,
  };
}
