import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * HorizontalPodAutoscaler at autoscaling/v1 (issue 16 item 2; spec doc 1 §9.3 rule 2): served beside
 * v2, converted losslessly through the `autoscaling.alpha.<domain>/…` annotations, and printed as a
 * Table with upstream's `kubectl get hpa` columns at every version.
 */
type Obj = Record<string, any>;
const path = (v: string, name = '') =>
  `/apis/autoscaling/${v}/namespaces/default/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (n: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
});
const memory = {
  type: 'Resource',
  resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
};

describe.each(['orch', 'kubernetes'] as FlavorName[])('HPA autoscaling/v1 (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const domain = flavor.descriptionAnnotation.split('/')[0];
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName, storage: 'memory' });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('an HPA written at v1 reads at v2 with its CPU target, and back at v1 unchanged', async () => {
    const body = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'one' },
      spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 55 },
    };
    const created = await api.request('POST', path('v1'), { body });
    expect(created.status, created.text).toBe(201);
    expect((created.json as Obj).spec).toEqual(body.spec);
    expect((created.json as Obj).metadata.annotations).toBeUndefined();
    expect(created.headers.warning).toBeUndefined();
    const v2 = (await api.request('GET', path('v2', 'one'))).json as Obj;
    expect(v2.spec.metrics).toEqual([cpu(55)]);
    const v1 = (await api.request('GET', path('v1', 'one'))).json as Obj;
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual(body.spec);
  });

  it('a v1 update keeps what only v2 can say (other metrics, behavior) through the annotations', async () => {
    const created = await api.request('POST', path('v2'), {
      body: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'two' },
        spec: {
          scaleTargetRef: target,
          maxReplicas: 6,
          metrics: [memory, cpu(70)],
          behavior: { scaleDown: { stabilizationWindowSeconds: 30 } },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const v1 = (await api.request('GET', path('v1', 'two'))).json as Obj;
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(JSON.parse(v1.metadata.annotations[`autoscaling.alpha.${domain}/metrics`])).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } },
    ]);
    expect(JSON.parse(v1.metadata.annotations[`autoscaling.alpha.${domain}/behavior`])).toEqual({
      scaleDown: { stabilizationWindowSeconds: 30 },
    });
    v1.spec.targetCPUUtilizationPercentage = 75;
    const put = await api.request('PUT', path('v1', 'two'), { body: v1 });
    expect(put.status, put.text).toBe(200);
    const back = (await api.request('GET', path('v2', 'two'))).json as Obj;
    expect(back.spec.metrics).toEqual([memory, cpu(75)]);
    expect(back.spec.behavior).toEqual({ scaleDown: { stabilizationWindowSeconds: 30 } });
    expect(back.metadata.annotations).toBeUndefined();
  });

  it('prints the same Table at v1 and v2 (NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE)', async () => {
    const accept = { accept: `application/json;as=Table;g=meta.${flavor.domain};v=v1` };
    const tables = await Promise.all(
      ['v1', 'v2'].map(async (v) => (await api.request('GET', path(v), { headers: accept })).json as Obj),
    );
    for (const t of tables) {
      expect(t.kind).toBe('Table');
      expect(t.columnDefinitions.map((c: Obj) => c.name)).toEqual([
        'Name',
        'Reference',
        'Targets',
        'MinPods',
        'MaxPods',
        'Replicas',
        'Age',
      ]);
      expect(t.rows.map((r: Obj) => r.cells.slice(0, 6))).toEqual([
        ['one', 'Deployment/web', 'cpu: <unknown>/55%', '1', 4, 0],
        ['two', 'Deployment/web', 'memory: <unknown>/100Mi, cpu: <unknown>/75%', '<unset>', 6, 0],
      ]);
    }
  });
});
