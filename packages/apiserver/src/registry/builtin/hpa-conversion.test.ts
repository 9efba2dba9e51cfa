import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { behaviorAnnotation, hpaConversion } from './hpa-conversion.js';

const v2 = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', annotations: { keep: 'me' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
      },
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
      {
        type: 'Object',
        object: {
          describedObject: { apiVersion: 'v1', kind: 'Service', name: 'web' },
          metric: { name: 'hits', selector: { matchLabels: { a: 'b' } } },
          target: { type: 'Value', value: '3' },
        },
      },
      {
        type: 'External',
        external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } },
      },
      {
        type: 'ContainerResource',
        containerResource: {
          name: 'cpu',
          container: 'app',
          target: { type: 'Utilization', averageUtilization: 70 },
        },
      },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
  },
  status: {
    desiredReplicas: 2,
    currentMetrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '200m' } },
      },
    ],
  },
};

describe('HorizontalPodAutoscaler conversion (spec doc 1 §9.3 rule 2, §9.4)', () => {
  const convert = hpaConversion(orchFlavor);
  it('renames target.averageUtilization to targetAverageUtilization in v2beta1 and keeps behavior in an annotation', () => {
    const old = convert(structuredClone(v2), 'v2beta1') as any;
    expect(old.apiVersion).toBe('autoscaling/v2beta1');
    expect(old.spec.metrics[0]).toEqual({
      type: 'Resource',
      resource: { name: 'cpu', targetAverageUtilization: 60 },
    });
    expect(old.spec.metrics[2]).toEqual({
      type: 'Pods',
      pods: { metricName: 'qps', targetAverageValue: '10' },
    });
    expect(old.spec.behavior).toBeUndefined();
    expect(old.metadata.annotations[behaviorAnnotation(orchFlavor)]).toBe(
      '{"scaleDown":{"stabilizationWindowSeconds":300}}',
    );
    expect(old.status.currentMetrics[0].resource).toEqual({
      name: 'cpu',
      currentAverageUtilization: 40,
      currentAverageValue: '200m',
    });
  });
  it.each(['v2beta1', 'v2beta2', 'v2'])('v2 → %s → v2 is lossless', (v) => {
    const back = convert(convert(structuredClone(v2), v), 'v2');
    expect(back).toEqual(v2);
  });
  it('v2beta2 has v2’s shape', () => {
    expect(convert(structuredClone(v2), 'v2beta2')).toEqual({ ...v2, apiVersion: 'autoscaling/v2beta2' });
  });
  it('names the annotation after the flavor', () => {
    expect(behaviorAnnotation(kubernetesFlavor)).toBe('autoscaling.alpha.kubernetes.io/behavior');
    expect(behaviorAnnotation(orchFlavor)).toBe('autoscaling.alpha.orch.io/behavior');
  });
  it('rejects an unknown version', () => {
    expect(() => convert(structuredClone(v2), 'v3')).toThrow('unknown HorizontalPodAutoscaler version v3');
  });
});
