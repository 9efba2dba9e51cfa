import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '../src/versions/runtime-config.js';

/**
 * What stock kubectl 1.32 sees of API versions (issue 16 items 1–4, kubernetes flavor): `api-versions`
 * and `api-resources` follow `runtimeConfig`, a deprecated version's warning is printed, and
 * `kubectl get hpa.v2beta2.autoscaling` reads an HPA stored as v2; server-side apply through both
 * versions keeps managedFields right.
 */
describe.skipIf(!kubectlAvailable())('kubectl and API versions (kubernetes flavor)', () => {
  let api: TestServer;
  const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath, timeoutMs: 60_000 });
  const kIn = (input: string, ...args: string[]) =>
    kubectl(args, { kubeconfig: api.kubeconfigPath, timeoutMs: 60_000, input });

  beforeAll(async () => {
    api = await startTestServer({
      flavor: 'kubernetes',
      server: { runtimeConfig: parseRuntimeConfig('autoscaling/v2beta2=true,batch/v1/jobs=false') },
    });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('kubectl api-versions and api-resources list what runtimeConfig serves', async () => {
    const versions = await k('api-versions');
    expect(versions.code, versions.stderr).toBe(0);
    const lines = versions.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['autoscaling/v1', 'autoscaling/v2', 'autoscaling/v2beta2', 'batch/v1', 'v1']),
    );
    expect(lines).not.toContain('autoscaling/v2beta1');
    expect(lines).not.toContain('batch/v1beta1');
    const resources = await k('api-resources', '--api-group', 'batch');
    expect(resources.code, resources.stderr).toBe(0);
    expect(resources.stdout).toMatch(/cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob/);
    expect(resources.stdout).not.toMatch(/^jobs\s/m);
    const hpa = await k('api-resources', '--api-group', 'autoscaling');
    expect(hpa.stdout).toMatch(
      /horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler/,
    );
  });

  it('prints the deprecation warning and reads an HPA at v2beta2 that was written at v2', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
          },
        ],
      },
    });
    const created = await kIn(manifest, 'apply', '--server-side', '--field-manager', 'v2-applier', '-f', '-');
    expect(created.code, created.stderr).toBe(0);
    // The full name: kubectl's short-name expansion of `hpa.v2beta2.autoscaling` keeps the group
    // but drops the version (client-side, as against any server), so that one reads at v2.
    const got = await k('get', 'horizontalpodautoscalers.v2beta2.autoscaling', 'web', '-o', 'json');
    expect(got.code, got.stderr).toBe(0);
    expect(got.stderr).toContain(
      'Warning: autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler',
    );
    const obj = JSON.parse(got.stdout);
    expect(obj.apiVersion).toBe('autoscaling/v2beta2');
    expect(obj.spec.metrics[0].resource.target).toEqual({ type: 'Utilization', averageUtilization: 80 });
    const short = await k('get', 'hpa.v2beta2.autoscaling', 'web', '-o', 'json');
    expect(short.code, short.stderr).toBe(0);
    expect(JSON.parse(short.stdout).apiVersion).toBe('autoscaling/v2');
    const plain = await k('get', 'hpa', 'web', '-o', 'json');
    expect(plain.stderr).toBe('');
    expect(JSON.parse(plain.stdout).apiVersion).toBe('autoscaling/v2');
  });

  it('server-side apply through v2beta2 and v2 keeps each manager’s fields at its version', async () => {
    const beta = JSON.stringify({
      apiVersion: 'autoscaling/v2beta2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minReplicas: 2 },
    });
    const applied = await kIn(beta, 'apply', '--server-side', '--field-manager', 'beta-applier', '-f', '-');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated');
    const conflict = await kIn(
      JSON.stringify({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web', namespace: 'default' },
        spec: { minReplicas: 3 },
      }),
      'apply',
      '--server-side',
      '--field-manager',
      'v2-other',
      '-f',
      '-',
    );
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('conflict with "beta-applier"');
    expect(conflict.stderr).toContain('.spec.minReplicas');
    const got = await k('get', 'hpa', 'web', '-o', 'json', '--show-managed-fields');
    const managed = JSON.parse(got.stdout).metadata.managedFields as {
      manager: string;
      apiVersion: string;
    }[];
    expect(managed.map((m) => [m.manager, m.apiVersion])).toEqual(
      expect.arrayContaining([
        ['v2-applier', 'autoscaling/v2'],
        ['beta-applier', 'autoscaling/v2beta2'],
      ]),
    );
  });

  it('kubectl get hpa prints upstream’s columns, and reads the HPA at autoscaling/v1', async () => {
    const table = await k('get', 'hpa');
    expect(table.code, table.stderr).toBe(0);
    const [header, row] = table.stdout.trim().split('\n');
    expect(header?.split(/\s+/)).toEqual([
      'NAME',
      'REFERENCE',
      'TARGETS',
      'MINPODS',
      'MAXPODS',
      'REPLICAS',
      'AGE',
    ]);
    expect(row).toMatch(/^web\s+Deployment\/web\s+cpu: <unknown>\/80%\s+2\s+5\s+0\s+\S+$/);
    const v1 = await k('get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json');
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stderr).toBe('');
    const obj = JSON.parse(v1.stdout);
    expect(obj.apiVersion).toBe('autoscaling/v1');
    expect(obj.spec).toMatchObject({ minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 80 });
  });

  it('a removed version is not found (batch/v1beta1 CronJob at 1.32)', async () => {
    const r = await k('get', 'cronjobs.v1beta1.batch');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`the server doesn't have a resource type "cronjobs"`);
  });
});
