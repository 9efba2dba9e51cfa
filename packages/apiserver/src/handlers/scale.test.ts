import type { StoredObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { toScale } from './scale.js';

const obj = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns', uid: 'u', resourceVersion: '7' },
    spec,
    status,
  }) as StoredObject;

describe('toScale', () => {
  const cases: [string, StoredObject, Parameters<typeof toScale>[1], Record<string, unknown>][] = [
    [
      'selector from a label selector',
      obj({ replicas: 3, selector: { matchLabels: { app: 'a', tier: 'b' } } }, { replicas: 2 }),
      { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', selectorFromSpec: true },
      { spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=a,tier=b' } },
    ],
    [
      'selector with expressions',
      obj({
        replicas: 1,
        selector: {
          matchExpressions: [
            { key: 'env', operator: 'In', values: ['a', 'b'] },
            { key: 'x', operator: 'Exists' },
            { key: 'y', operator: 'DoesNotExist' },
          ],
        },
      }),
      { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', selectorFromSpec: true },
      { spec: { replicas: 1 }, status: { replicas: 0, selector: 'env in (a,b),x,!y' } },
    ],
    [
      'selector in canonical order (requirements by key, values sorted), as upstream',
      obj({
        replicas: 1,
        selector: {
          matchLabels: { tier: 'b', app: 'a' },
          matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['z', 'c'] }],
        },
      }),
      { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', selectorFromSpec: true },
      { spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=a,env notin (c,z),tier=b' } },
    ],
    [
      'custom paths',
      obj({ size: { count: 4 }, sel: 'k=v' }, { count: 1 }),
      {
        specReplicasPath: '.spec.size.count',
        statusReplicasPath: '.status.count',
        labelSelectorPath: '.spec.sel',
      },
      { spec: { replicas: 4 }, status: { replicas: 1, selector: 'k=v' } },
    ],
    [
      'no replicas yet',
      obj({}),
      { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
      { spec: {}, status: { replicas: 0 } },
    ],
  ];
  it.each(cases)('%s', (_n, o, paths, expected) => {
    expect(toScale(o, paths)).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'd', namespace: 'ns', resourceVersion: '7' },
      ...expected,
    });
  });
});
