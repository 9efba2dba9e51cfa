import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HeartbeatEvent, type NodeAgent, startNodeAgent } from '../src/index.js';
import { fakeMachine, nodeClient } from './helpers.js';

/**
 * The agent against the real server with its own node credentials, the Node authorizer and
 * NodeRestriction on (the default `Node,RBAC`), under both flavors (issue 17 items 2 and 3):
 * registration with the §2.8 labels, addresses, nodeInfo and resources; the Lease renewed; a
 * condition change posted at once; a restart that finds its Node registered.
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)('node agent (%s flavor)', (name: FlavorName) => {
  const flavor = flavorByName(name);
  const domain = name === 'kubernetes' ? 'kubernetes.io' : 'orch.io';
  const lease = (node: string) =>
    `/apis/${flavor.group('coordination')}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases/${node}`;
  let api: TestServer;
  let agent: NodeAgent;
  const machine = fakeMachine('worker-1.example');
  const events: HeartbeatEvent[] = [];
  const get = async (path: string): Promise<Obj> => {
    const r = await api.request('GET', path);
    expect(r.status).toBe(200);
    return r.json as Obj;
  };
  const condition = async (type: string) =>
    ((await get('/api/v1/nodes/n1')).status.conditions as Obj[]).find((c) => c.type === type);

  /** Node n1's agent with a quick lease and (long) status period: only a change or checkStatus posts. */
  const startAgent = async (extra: Partial<Parameters<typeof startNodeAgent>[0]> = {}) =>
    startNodeAgent({
      client: await nodeClient(api, 'n1'),
      flavor,
      nodeName: 'n1',
      machine,
      leaseRenewIntervalMs: 200,
      statusUpdateFrequencyMs: 60_000,
      ...extra,
    });

  beforeAll(async () => {
    api = await startTestServer({ flavor: name });
    agent = await startAgent({
      topology: { zone: 'z1', region: 'r1', instanceType: 'm.large' },
      onEvent: (e) => events.push(e),
    });
    await agent.registered;
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await api?.stop();
  });

  it('registers its Node with the labels, addresses, nodeInfo, resources and five conditions', async () => {
    const node = await get('/api/v1/nodes/n1');
    expect(node.metadata.labels).toEqual({
      [`${domain}/arch`]: 'amd64',
      [`${domain}/hostname`]: 'worker-1.example',
      [`${domain}/os`]: 'linux',
      [`node.${domain}/instance-type`]: 'm.large',
      [`topology.${domain}/region`]: 'r1',
      [`topology.${domain}/zone`]: 'z1',
    });
    expect(node.status.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'Hostname', address: 'worker-1.example' },
    ]);
    expect(node.status.capacity).toEqual({
      cpu: '2',
      'ephemeral-storage': '100Gi',
      memory: '4Gi',
      pods: '110',
    });
    // Allocatable memory leaves out the 100Mi hard eviction threshold (the server canonicalizes quantities).
    expect(node.status.allocatable.memory).toBe('3996Mi');
    expect(node.status.nodeInfo).toMatchObject({
      machineID: 'machine-1',
      bootID: 'boot-1',
      kernelVersion: '6.1.0-test',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    const types = (node.status.conditions as Obj[]).map((c) => [c.type, c.status]);
    expect(types).toEqual([
      ['NetworkUnavailable', 'False'],
      ['MemoryPressure', 'False'],
      ['DiskPressure', 'False'],
      ['PIDPressure', 'False'],
      ['Ready', 'True'],
    ]);
    const ready = (node.status.conditions as Obj[]).find((c) => c.type === 'Ready');
    expect(ready?.reason).toBe(name === 'kubernetes' ? 'KubeletReady' : 'NodeAgentReady');
  });

  it('renews its Lease (renewTime advances), owned by its Node', async () => {
    const first = await waitFor('the Lease', async () => {
      const r = await api.request('GET', lease('n1'));
      return r.status === 200 ? (r.json as Obj) : undefined;
    });
    expect(first.spec).toMatchObject({ holderIdentity: 'n1', leaseDurationSeconds: 40 });
    const later = await waitFor(
      'a later renewTime',
      async () => {
        const l = await get(lease('n1'));
        return l.spec.renewTime > first.spec.renewTime ? l : undefined;
      },
      20_000,
    );
    expect(later.spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const node = await get('/api/v1/nodes/n1');
    const owners = (await waitFor('the Lease owner', async () => {
      const l = await get(lease('n1'));
      return l.metadata.ownerReferences;
    })) as Obj[];
    expect(owners).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: node.metadata.uid }]);
  });

  it('posts a condition change at once (MemoryPressure True with a new transition time)', async () => {
    const before = await condition('MemoryPressure');
    machine.set({ memoryAvailableBytes: 50 * 1024 * 1024 });
    agent.checkStatus();
    const after = await waitFor(
      'MemoryPressure=True',
      async () => {
        const c = await condition('MemoryPressure');
        return c?.status === 'True' ? c : undefined;
      },
      20_000,
    );
    expect(after.reason).toBe(
      name === 'kubernetes' ? 'KubeletHasInsufficientMemory' : 'NodeAgentHasInsufficientMemory',
    );
    expect(after.lastTransitionTime >= (before?.lastTransitionTime ?? '')).toBe(true);
    // Ready's transition time is kept: its status did not change.
    const ready = await condition('Ready');
    expect(ready?.status).toBe('True');
    machine.set({ memoryAvailableBytes: 3 * 1024 * 1024 * 1024 });
  });

  it('a second agent for the same node (a restart) finds it registered and keeps serving it', async () => {
    await agent.stop();
    const uid = (await get('/api/v1/nodes/n1')).metadata.uid;
    agent = await startAgent();
    await agent.registered;
    const node = await get('/api/v1/nodes/n1');
    expect(node.metadata.uid).toBe(uid);
    expect((await condition('MemoryPressure'))?.status).toBe('False');
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });

  it('cannot register a Node of another name with its credentials (NodeRestriction)', async () => {
    const other = await (await nodeClient(api, 'n1')).raw({
      method: 'POST',
      path: '/api/v1/nodes',
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } },
    });
    expect(other.status).toBe(403);
  });
});
