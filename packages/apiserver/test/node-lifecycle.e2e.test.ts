import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The node lifecycle controller through the real server (issue 17 item 1), on a fake clock: a node
 * whose Lease is renewed stays Ready; one silent past `--node-monitor-grace-period` turns Ready,
 * MemoryPressure, DiskPressure and PIDPressure Unknown; a node that never posted status gets the
 * startup grace. Both flavors (the Lease group and node-lease namespace come from the flavor).
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)(
  'node lifecycle controller (%s flavor)',
  (name: FlavorName) => {
    const flavor = flavorByName(name);
    const leases = `/apis/${flavor.group('coordination')}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases`;
    let api: TestServer;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    let clockReads = 0;
    const now = () => {
      clockReads++;
      return clock;
    };
    /** Resolves once the monitor (every 20 ms) has read the clock a few more times: it has run since. */
    const monitorRuns = async () => {
      const target = clockReads + 3;
      await waitFor('the node monitor to run', () => clockReads >= target, 10_000);
    };
    const readNode = async (node: string): Promise<Obj> =>
      (await api.request('GET', `/api/v1/nodes/${node}`)).json as Obj;
    const conditionOf = async (node: string, type: string): Promise<Obj | undefined> =>
      ((await readNode(node)).status?.conditions ?? []).find((c: Obj) => c.type === type);
    const renew = async (node: string) => {
      const r = await api.request('PUT', `${leases}/${node}`, {
        body: {
          ...((await api.request('GET', `${leases}/${node}`)).json as Obj),
          spec: {
            holderIdentity: node,
            leaseDurationSeconds: 40,
            renewTime: new Date(clock).toISOString().replace('Z', '000Z'),
          },
        },
      });
      expect(r.status).toBe(200);
    };

    beforeAll(async () => {
      api = await startTestServer({
        flavor: name,
        server: {
          nodeLifecycle: { now, monitorPeriodMs: 20, gracePeriodMs: 50_000, startupGracePeriodMs: 60_000 },
        },
      });
      const t = new Date(clock).toISOString().replace('.000Z', 'Z');
      for (const node of ['alive', 'silent']) {
        const created = await api.request('POST', '/api/v1/nodes', {
          body: {
            apiVersion: 'v1',
            kind: 'Node',
            metadata: { name: node },
            status: {
              conditions: [
                {
                  type: 'Ready',
                  status: 'True',
                  reason: 'KubeletReady',
                  lastHeartbeatTime: t,
                  lastTransitionTime: t,
                },
                { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: t, lastTransitionTime: t },
                { type: 'NetworkUnavailable', status: 'False', lastHeartbeatTime: t, lastTransitionTime: t },
              ],
            },
          },
        });
        expect(created.status).toBe(201);
        const lease = await api.request('POST', leases, {
          body: {
            apiVersion: `${flavor.group('coordination')}/v1`,
            kind: 'Lease',
            metadata: { name: node },
            spec: {
              holderIdentity: node,
              leaseDurationSeconds: 40,
              renewTime: '2026-01-01T00:00:00.000000Z',
            },
          },
        });
        expect(lease.status).toBe(201);
      }
      const fresh = await api.request('POST', '/api/v1/nodes', {
        body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'never-posted' } },
      });
      expect(fresh.status).toBe(201);
      // The controller has seen all three nodes (it probes each at its first observation).
      await monitorRuns();
    }, 60_000);
    afterAll(async () => {
      await api?.stop();
    });

    it('keeps a node whose Lease is renewed Ready, and marks the silent one Unknown after the grace period', async () => {
      clock += 30_000;
      await renew('alive');
      await monitorRuns();
      clock += 30_000; // 60 s since the silent node's last sign, 30 s since alive's renewal
      await monitorRuns();
      const silentReady = await waitFor('silent node Ready=Unknown', async () => {
        const c = await conditionOf('silent', 'Ready');
        return c?.status === 'Unknown' ? c : undefined;
      });
      expect(silentReady).toMatchObject({
        reason: 'NodeStatusUnknown',
        message: `${name === 'kubernetes' ? 'Kubelet' : 'Node agent'} stopped posting node status.`,
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:01:00Z',
      });
      const silent = await readNode('silent');
      const byType = Object.fromEntries(silent.status.conditions.map((c: Obj) => [c.type, c]));
      expect(byType.MemoryPressure.status).toBe('Unknown');
      expect(byType.DiskPressure).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated' });
      expect(byType.PIDPressure.status).toBe('Unknown');
      expect(byType.NetworkUnavailable.status).toBe('False');
      expect((await conditionOf('alive', 'Ready'))?.status).toBe('True');
    });

    it('gives a node that never posted status the startup grace (60 s), then adds Unknown conditions', async () => {
      // 60 s have passed since the controller first saw it: not yet past the startup grace.
      expect(await conditionOf('never-posted', 'Ready')).toBeUndefined();
      clock += 5_000;
      await monitorRuns();
      const ready = await waitFor('never-posted Ready=Unknown', () => conditionOf('never-posted', 'Ready'));
      expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated' });
    });

    it('marks the renewed node Unknown too once its Lease stops (50 s after the last renewal)', async () => {
      clock += 20_000; // 55 s since alive's renewal
      await monitorRuns();
      const c = await waitFor('alive Ready=Unknown', async () => {
        const r = await conditionOf('alive', 'Ready');
        return r?.status === 'Unknown' ? r : undefined;
      });
      expect(c.reason).toBe('NodeStatusUnknown');
    });
  },
);
