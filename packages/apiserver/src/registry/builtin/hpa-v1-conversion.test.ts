import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { hpaConversion } from './hpa-conversion.js';
import { hpaV1Annotations } from './hpa-v1-conversion.js';

/** autoscaling/v1 HorizontalPodAutoscaler ↔ v2 (issue 16 item 2; spec doc 1 §9.3 rule 2). */
const meta = { name: 'web', namespace: 'default', annotations: { keep: 'me' } };
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (n: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
});
const full = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta,
  spec: {
    scaleTargetRef: target,
    minReplicas: 2,
    maxReplicas: 9,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
      cpu(70),
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
  },
  status: {
    currentReplicas: 3,
    desiredReplicas: 4,
    currentMetrics: [
      { type: 'Resource', resource: { name: 'memory', current: { averageValue: '90Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '8' } } },
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 65, averageValue: '130m' } },
      },
    ],
    conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }],
  },
};

describe.each([kubernetesFlavor, orchFlavor])('HPA autoscaling/v1 ($name)', (flavor) => {
  const convert = hpaConversion(flavor);
  const names = hpaV1Annotations(flavor);
  const domain = flavor.name === 'kubernetes' ? 'kubernetes.io' : 'orch.io';

  it('names the annotations under the flavor’s domain', () => {
    expect(names).toEqual({
      metrics: `autoscaling.alpha.${domain}/metrics`,
      currentMetrics: `autoscaling.alpha.${domain}/current-metrics`,
      behavior: `autoscaling.alpha.${domain}/behavior`,
      conditions: `autoscaling.alpha.${domain}/conditions`,
    });
  });

  it('keeps CPU in its fields and everything else in annotations, and reads it all back (lossless)', () => {
    const v1 = convert(structuredClone(full) as never, 'v1') as Record<string, any>;
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({
      scaleTargetRef: target,
      minReplicas: 2,
      maxReplicas: 9,
      targetCPUUtilizationPercentage: 70,
    });
    expect(v1.status).toEqual({
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: 65,
    });
    const a = v1.metadata.annotations;
    expect(a.keep).toBe('me');
    expect(JSON.parse(a[names.metrics])).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } },
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
    ]);
    expect(JSON.parse(a[names.currentMetrics])).toHaveLength(3);
    expect(JSON.parse(a[names.behavior])).toEqual(full.spec.behavior);
    expect(JSON.parse(a[names.conditions])).toEqual(full.status.conditions);
    expect(convert(v1 as never, 'v2')).toEqual(full);
    // And through v2beta1 and back, for good measure.
    expect(convert(convert(v1 as never, 'v2beta1'), 'v1')).toEqual(v1);
  });

  it('a v1 object with only a CPU target reads as v2 with that one metric, and back without annotations', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    };
    const v2 = convert(structuredClone(v1) as never, 'v2') as Record<string, any>;
    expect(v2.spec).toEqual({ scaleTargetRef: target, maxReplicas: 3, metrics: [cpu(50)] });
    expect(convert(v2 as never, 'v1')).toEqual(v1);
  });

  it('a v1 object with no target gets upstream’s default, CPU at 80%', () => {
    const v2 = convert(
      {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'x' },
        spec: { maxReplicas: 2 },
      } as never,
      'v2',
    ) as Record<string, any>;
    expect(v2.spec.metrics).toEqual([cpu(80)]);
  });

  it('ignores a malformed annotation and never passes round-trip annotations through', () => {
    const v2 = convert(
      {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'x', annotations: { [names.metrics]: '{not json', [names.behavior]: '[1]' } },
        spec: { maxReplicas: 2, targetCPUUtilizationPercentage: 40 },
      } as never,
      'v2',
    ) as Record<string, any>;
    expect(v2.spec.metrics).toEqual([cpu(40)]);
    expect(v2.spec.behavior).toBeUndefined();
    expect(v2.metadata.annotations).toBeUndefined();
    // A stale annotation a client wrote at v2 is replaced by what v1 derives from the object.
    const stale = {
      ...structuredClone(full),
      metadata: { name: 'web', annotations: { [names.metrics]: '[]', [names.conditions]: 'junk' } },
      status: { currentReplicas: 1, desiredReplicas: 1 },
    };
    const v1 = convert(stale as never, 'v1') as Record<string, any>;
    expect(JSON.parse(v1.metadata.annotations[names.metrics])).toHaveLength(2);
    expect(v1.metadata.annotations[names.conditions]).toBeUndefined();
  });

  it('puts the CPU metric last when it comes back from v1, as upstream does', () => {
    const first = {
      ...structuredClone(full),
      spec: { ...full.spec, metrics: [cpu(10), ...full.spec.metrics.slice(0, 2)] },
    };
    const back = convert(convert(first as never, 'v1'), 'v2') as Record<string, any>;
    expect(back.spec.metrics).toEqual([...full.spec.metrics.slice(0, 2), cpu(10)]);
  });
});
