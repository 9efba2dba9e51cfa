import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { builtinTableConvertor } from './builtin.js';
import { formatHpaMetrics, horizontalPodAutoscalerTable } from './builtin-autoscaling.js';
import type { TableConvertor } from './types.js';

/** `kubectl get hpa` columns, as upstream's printHorizontalPodAutoscaler. */
const ctx = { now: Date.parse('2024-05-06T10:00:00Z') } as Parameters<TableConvertor['cells']>[1];
const res = (name: string, target: Record<string, unknown>) => ({
  type: 'Resource',
  resource: { name, target },
});

describe('HorizontalPodAutoscaler table', () => {
  it('has upstream’s columns, under both flavors', () => {
    expect(horizontalPodAutoscalerTable.columns.map((c) => c.name)).toEqual([
      'Name',
      'Reference',
      'Targets',
      'MinPods',
      'MaxPods',
      'Replicas',
      'Age',
    ]);
    for (const flavor of [orchFlavor, kubernetesFlavor])
      expect(
        builtinTableConvertor({ group: 'autoscaling', resource: 'horizontalpodautoscalers' }, flavor),
      ).toBe(horizontalPodAutoscalerTable);
  });

  it('prints a row as kubectl get hpa does', () => {
    const row = horizontalPodAutoscalerTable.cells(
      {
        metadata: { name: 'web', creationTimestamp: '2024-05-06T09:00:00Z' },
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'web' },
          maxReplicas: 5,
          metrics: [res('cpu', { type: 'Utilization', averageUtilization: 80 })],
        },
        status: { currentReplicas: 2 },
      },
      ctx,
    );
    expect(row).toEqual(['web', 'Deployment/web', 'cpu: <unknown>/80%', '<unset>', 5, 2, '60m']);
  });

  it('formats each metric type, current values when known, and cuts after two', () => {
    expect(formatHpaMetrics(undefined, undefined)).toBe('<none>');
    const specs = [
      res('cpu', { type: 'Utilization', averageUtilization: 60 }),
      res('memory', { type: 'AverageValue', averageValue: '0.5Gi' }),
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
    ];
    const statuses = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42 } } },
      { type: 'Resource', resource: { name: 'memory', current: { averageValue: '100Mi' } } },
    ];
    expect(formatHpaMetrics(specs, statuses)).toBe('cpu: 42%/60%, memory: 100Mi/512Mi + 1 more...');
    expect(formatHpaMetrics(specs.slice(2), [])).toBe('<unknown>/10');
    expect(
      formatHpaMetrics(
        [
          {
            type: 'External',
            external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } },
          },
          { type: 'Object', object: { metric: { name: 'hits' }, target: { type: 'Value', value: '3' } } },
        ],
        [undefined, { type: 'Object', object: { current: { value: '2' } } }],
      ),
    ).toBe('<unknown>/30 (avg), 2/3');
    expect(formatHpaMetrics([res('cpu', { type: 'Utilization' })], [])).toBe('cpu: <unknown>/<auto>');
    expect(formatHpaMetrics([{ type: 'Bogus' }], [])).toBe('<unknown type>');
  });
});
