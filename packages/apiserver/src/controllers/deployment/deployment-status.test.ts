import { describe, expect, it } from 'vitest';
import { deploymentStatus, fenceposts } from './deployment-status.js';

const deployment = (
  replicas: number,
  status: Record<string, unknown> = {},
  strategy: unknown = undefined,
) => ({
  metadata: { name: 'web', generation: 2 },
  spec: {
    replicas,
    progressDeadlineSeconds: 600,
    strategy: strategy ?? {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    },
  },
  status,
});
const rs = (name: string, replicas: number, ready: number) => ({
  metadata: { name },
  spec: { replicas },
  status: { replicas, readyReplicas: ready, availableReplicas: ready },
});
const summary = (s: Record<string, unknown>) =>
  (s.conditions as { type: string; status: string; reason: string; message: string }[]).map((c) => [
    c.type,
    c.status,
    c.reason,
    c.message,
  ]);

describe('deploymentStatus', () => {
  it('resolves maxSurge up and maxUnavailable down, as upstream', () => {
    expect(fenceposts(deployment(10))).toEqual([3, 2]);
    expect(
      fenceposts(
        deployment(1, {}, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }),
      ),
    ).toEqual([0, 1]);
    expect(fenceposts(deployment(4, {}, { type: 'Recreate' }))).toEqual([0, 0]);
  });

  it('a complete rollout: counts, Available and NewReplicaSetAvailable', () => {
    const n = rs('web-abc', 3, 3);
    const s = deploymentStatus({ deployment: deployment(3), newRs: n, allRs: [n] });
    expect(s).toMatchObject({
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect(s.unavailableReplicas).toBeUndefined();
    expect(summary(s)).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-abc" has successfully progressed.'],
    ]);
  });

  it('nothing ready: unavailable counted from the ReplicaSets’ spec, then the deadline passes', () => {
    const n = { ...rs('web-abc', 3, 0), status: { replicas: 0 } };
    const created = deploymentStatus({
      deployment: deployment(3),
      newRs: n,
      allRs: [n],
      event: 'created',
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    expect(created).toMatchObject({ unavailableReplicas: 3 });
    expect(created.replicas).toBeUndefined();
    expect(summary(created)).toEqual([
      ['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-abc"'],
    ]);
    const later = deploymentStatus({
      deployment: deployment(3, created),
      newRs: n,
      allRs: [n],
      now: () => new Date('2026-01-01T00:10:01Z'),
    });
    expect(summary(later)[1]).toEqual([
      'Progressing',
      'False',
      'ProgressDeadlineExceeded',
      'ReplicaSet "web-abc" has timed out progressing.',
    ]);
  });
});
