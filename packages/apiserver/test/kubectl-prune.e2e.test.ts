import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `kubectl apply --prune -l …` with kubectl 1.32's default allowlist (issue 19 item 7): every kind
 * on the list (ConfigMap, Endpoints, Namespace, PVC, PV, Pod, ReplicationController, Secret,
 * Service, Job, CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet) is served, so
 * prune lists them all and deletes what the directory no longer holds.
 */
describe.skipIf(!kubectlAvailable())('kubectl apply --prune', () => {
  let api: TestServer;
  let dir: string;
  const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
  const write = (file: string, doc: Record<string, unknown>) =>
    writeFileSync(join(dir, file), JSON.stringify(doc));
  const configMap = (name: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: { app: 'x' } },
    data: { k: name },
  });

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    dir = mkdtempSync(join(tmpdir(), 'orchard-prune-'));
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prunes the labelled objects a directory no longer holds, across kinds, and keeps the rest', async () => {
    write('a.json', configMap('a'));
    write('b.json', configMap('b'));
    write('job.json', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', labels: { app: 'x' } },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const first = await k('apply', '--prune', '-l', 'app=x', '-f', dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('configmap/a created');
    expect(first.stdout).toContain('job.batch/once created');
    // Labelled like the set but never applied from it: prune leaves objects without the last-applied annotation.
    expect((await k('create', 'cm', 'bystander')).code).toBe(0);
    expect((await k('label', 'cm', 'bystander', 'app=x')).code).toBe(0);

    rmSync(join(dir, 'b.json'));
    rmSync(join(dir, 'job.json'));
    const second = await k('apply', '--prune', '-l', 'app=x', '-f', dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('configmap/a unchanged');
    expect(second.stdout).toContain('configmap/b pruned');
    expect(second.stdout).toContain('job.batch/once pruned');
    expect(second.stderr).not.toContain('error');
    const left = await k('get', 'cm', '-l', 'app=x', '-o', 'name');
    expect(left.stdout.split('\n').filter(Boolean).sort()).toEqual(['configmap/a', 'configmap/bystander']);
  });

  it('under the orch flavor the default allowlist names networking.k8s.io Ingress, which kubectl cannot map; an explicit allowlist works', async () => {
    const orch = await startTestServer({ flavor: 'orch' });
    try {
      const ko = (...args: string[]) => kubectl(args, { kubeconfig: orch.kubeconfigPath });
      const plain = await ko('apply', '--prune', '-l', 'app=x', '-f', dir);
      expect(plain.code).not.toBe(0);
      expect(plain.stderr).toContain(
        'error retrieving RESTMappings to prune: invalid resource networking.k8s.io/v1, Kind=Ingress, Namespaced=true: no matches for kind "Ingress" in version "networking.k8s.io/v1"',
      );
      const allowed = await ko(
        'apply',
        '--prune',
        '-l',
        'app=x',
        '--prune-allowlist=core/v1/ConfigMap',
        '-f',
        dir,
      );
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain('configmap/a');
    } finally {
      await orch.stop();
    }
  });
});
