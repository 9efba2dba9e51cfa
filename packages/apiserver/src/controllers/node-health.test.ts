import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { observeNodeHealth, readyHeartbeat, unknownConditions } from './node-health.js';

const node = (conditions?: unknown[]) => ({
  metadata: { name: 'n1', creationTimestamp: '2026-01-01T00:00:00Z' },
  ...(conditions ? { status: { conditions } } : {}),
});
const ready = (status: string, heartbeat = '2026-01-01T00:00:10Z') => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: '2026-01-01T00:00:05Z',
  reason: 'KubeletReady',
  message: 'ready',
});

describe('observeNodeHealth (a fake clock: plain numbers)', () => {
  it('the first observation probes at now', () => {
    expect(observeNodeHealth(undefined, 'h1', undefined, 1000)).toEqual({
      probeAt: 1000,
      readyHeartbeat: 'h1',
      leaseRenewTime: undefined,
    });
  });
  it('a new Ready heartbeat or Lease renewTime moves the probe; the same ones do not', () => {
    const first = observeNodeHealth(undefined, 'h1', 'r1', 1000);
    expect(observeNodeHealth(first, 'h1', 'r1', 9000).probeAt).toBe(1000);
    expect(observeNodeHealth(first, 'h2', 'r1', 9000).probeAt).toBe(9000);
    expect(observeNodeHealth(first, 'h1', 'r2', 9000).probeAt).toBe(9000);
    // A Lease that is gone (undefined) is no sign of life.
    expect(observeNodeHealth(first, 'h1', undefined, 9000).probeAt).toBe(1000);
  });
});

describe('unknownConditions', () => {
  const now = new Date('2026-01-01T00:01:00Z');

  it('turns Ready and the pressure conditions Unknown with upstream reasons, keeps NetworkUnavailable', () => {
    const conds = unknownConditions(
      node([
        ready('True'),
        { type: 'MemoryPressure', status: 'False', lastTransitionTime: 'x' },
        { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' },
      ]),
      kubernetesFlavor,
      now,
    );
    expect(conds).toEqual([
      {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: '2026-01-01T00:00:10Z',
        lastTransitionTime: '2026-01-01T00:01:00Z',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
      {
        type: 'MemoryPressure',
        status: 'Unknown',
        lastTransitionTime: '2026-01-01T00:01:00Z',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
      { type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' },
      {
        type: 'DiskPressure',
        status: 'Unknown',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:01:00Z',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
      },
      {
        type: 'PIDPressure',
        status: 'Unknown',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:01:00Z',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
      },
    ]);
  });

  it('names the node agent under the orch flavor', () => {
    const conds = unknownConditions(node([ready('True')]), orchFlavor, now);
    expect(conds?.[0]?.message).toBe('Node agent stopped posting node status.');
  });

  it('changes nothing when every monitored condition is already Unknown', () => {
    const unknown = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
      type,
      status: 'Unknown',
    }));
    expect(unknownConditions(node(unknown), kubernetesFlavor, now)).toBeUndefined();
  });

  it('survives a hostile status (conditions not a list, entries of the wrong type)', () => {
    expect(readyHeartbeat({ status: { conditions: 'x' } })).toBeUndefined();
    expect(readyHeartbeat({ status: { conditions: [null, 1, ['Ready']] } })).toBeUndefined();
    const conds = unknownConditions({ metadata: {}, status: { conditions: [null, 7] } }, orchFlavor, now);
    expect(conds?.map((c) => c.type)).toEqual(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']);
  });
});
