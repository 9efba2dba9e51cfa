import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The node lifecycle controller through the real server (issue 17 item 1), on a fake clock: a node
 * whose Lease is renewed stays Ready; one silent past `--node-monitor-grace-period` turns Ready,
 * MemoryPressure, DiskPressure and PIDPressure Unknown; a node that never posted status gets the
 * startup grace. Both flavors (the Lease group and node-lease namespace come from the flavor).
 * The taints follow (`node.<domain>/unreachable` and `/not-ready`, NoSchedule and NoExecute, the
 * cordon taint), and when no node is Ready at all the NoExecute taints go (master disruption mode).
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
    const taintKey = (t: string) => `node.${name === 'kubernetes' ? 'kubernetes.io' : 'orch.io'}/${t}`;
    /** The node's taints as sorted `key:effect` strings. */
    const taintsOf = async (node: string): Promise<string[]> =>
      ((await readNode(node)).spec?.taints ?? []).map((t: Obj) => `${t.key}:${t.effect}`).sort();
    const taintsBecome = (node: string, want: string[]) =>
      waitFor(`${node} taints ${want.join(',')}`, async () => {
        const have = await taintsOf(node);
        return JSON.stringify(have) === JSON.stringify([...want].sort()) ? have : undefined;
      });
    const postReady = async (node: string, status: string) => {
      const t = new Date(clock).toISOString().replace('.000Z', 'Z');
      const current = await readNode(node);
      const conditions = current.status.conditions.map((c: Obj) =>
        c.type === 'Ready'
          ? { ...c, status, reason: 'Test', lastHeartbeatTime: t, lastTransitionTime: t }
          : c.type === 'NetworkUnavailable'
            ? c
            : { ...c, status: 'False', reason: 'Test', lastHeartbeatTime: t, lastTransitionTime: t },
      );
      const r = await api.request('PUT', `/api/v1/nodes/${node}/status`, {
        body: { ...current, status: { ...current.status, conditions } },
      });
      expect(r.status).toBe(200);
    };
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
      // One node of three down: a normal zone, so both taints (the first NoExecute needs no wait).
      const tainted = await taintsBecome('silent', [
        `${taintKey('unreachable')}:NoExecute`,
        `${taintKey('unreachable')}:NoSchedule`,
      ]);
      expect(tainted).toHaveLength(2);
      const raw = (await readNode('silent')).spec.taints as Obj[];
      expect(raw.every((t) => t.timeAdded === '2026-01-01T00:01:00Z')).toBe(true);
      expect(await taintsOf('alive')).toEqual([]);
    });

    it('swaps unreachable for not-ready when Ready turns False, and drops both when Ready returns', async () => {
      await postReady('silent', 'False');
      await monitorRuns();
      await taintsBecome('silent', [
        `${taintKey('not-ready')}:NoExecute`,
        `${taintKey('not-ready')}:NoSchedule`,
      ]);
      await postReady('silent', 'True');
      await monitorRuns();
      await taintsBecome('silent', []);
    });

    it('taints a cordoned node unschedulable:NoSchedule and untaints it when uncordoned', async () => {
      const patch = (unschedulable: boolean | null) =>
        api.request('PATCH', '/api/v1/nodes/alive', {
          body: JSON.stringify({ spec: { unschedulable } }),
          headers: { 'Content-Type': 'application/merge-patch+json' },
        });
      expect((await patch(true)).status).toBe(200);
      await monitorRuns();
      await taintsBecome('alive', [`${taintKey('unschedulable')}:NoSchedule`]);
      expect((await patch(null)).status).toBe(200);
      await monitorRuns();
      await taintsBecome('alive', []);
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

    it('keeps no NoExecute taint once no node is Ready anywhere (master disruption), only NoSchedule', async () => {
      clock += 60_000; // silent's Ready heartbeat is now 80 s old too
      await monitorRuns();
      await waitFor('silent Ready=Unknown again', async () =>
        (await conditionOf('silent', 'Ready'))?.status === 'Unknown' ? true : undefined,
      );
      await monitorRuns();
      for (const node of ['alive', 'silent', 'never-posted'])
        await taintsBecome(node, [`${taintKey('unreachable')}:NoSchedule`]);
    });
  },
);
