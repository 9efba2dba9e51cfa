import { kubernetesFlavor } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../server.js';

const leaseKey = '/coordination.k8s.io/leases/kube-system/kube-controller-manager';

describe('the lifecycle controllers under leader election', () => {
  it('a lone server leads at once, its controllers act, and close() releases the lease', async () => {
    const store = createMemoryStore();
    const server = createApiServer({
      flavor: kubernetesFlavor,
      store,
      leaderElection: { identity: 'only' },
    });
    await server.ready;
    await server.lifecycle.started;
    expect(server.lifecycle.isLeader()).toBe(true);
    expect(server.lifecycle.leader()).toBe('only');
    await server.close();
    const kv = (await store.get(leaseKey)).kv;
    const lease = JSON.parse(new TextDecoder().decode(kv?.value)) as { spec: Record<string, unknown> };
    expect(lease.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(server.lifecycle.isLeader()).toBe(false);
  });
});
