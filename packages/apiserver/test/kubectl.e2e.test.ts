import { spawn } from 'node:child_process';
import { kubectlAvailable, kubectlBinary } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { kubectlSuite } from './helpers/kubectl-suite.js';

/**
 * Stock kubectl 1.32 against the reference server under the `kubernetes` flavor, using only the
 * kubeconfig the server wrote. Skipped (with this reason) on machines without /usr/bin/kubectl.
 */
describe.skipIf(!kubectlAvailable())('kubectl against the reference server (kubernetes flavor)', () => {
  const suite = kubectlSuite();
  const { k } = suite;

  it('kubectl version', async () => {
    const r = await k('version');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Server Version: v1\.32\./);
  });

  it('kubectl api-resources', async () => {
    const r = await k('api-resources');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/configmaps\s+cm\s+v1\s+true\s+ConfigMap/);
    expect(r.stdout).toMatch(/namespaces\s+ns\s+v1\s+false\s+Namespace/);
    expect(r.stdout).toMatch(/leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease/);
  });

  it('kubectl get ns', async () => {
    const r = await k('get', 'ns');
    expect(r.code).toBe(0);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      expect(r.stdout).toContain(ns);
  });

  it('create ns, create configmap (Protobuf body), get -o yaml, get -A, watch, delete', async () => {
    expect(await k('create', 'ns', 'demo')).toMatchObject({ code: 0, stdout: 'namespace/demo created\n' });
    expect(await k('-n', 'demo', 'create', 'configmap', 'c', '--from-literal=a=b')).toMatchObject({
      code: 0,
      stdout: 'configmap/c created\n',
    });
    const yaml = await k('-n', 'demo', 'get', 'cm', 'c', '-o', 'yaml');
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toContain('kind: ConfigMap');
    expect(yaml.stdout).toMatch(/data:\n {2}a: b\n/);
    expect(yaml.stdout).toContain('namespace: demo');
    expect(yaml.stdout).toMatch(/uid: [0-9a-f-]{36}/);

    const all = await k('get', 'cm', '-A');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/demo\s+c\s+/);

    // `get -w` lists, then watches from the list's resourceVersion and prints later changes.
    const child = spawn(
      kubectlBinary(),
      [
        `--kubeconfig=${suite.api.kubeconfigPath}`,
        `--cache-dir=${suite.api.kubeconfigPath}.cache`,
        '-n',
        'demo',
        'get',
        'cm',
        '-w',
      ],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin', HOME: `${suite.api.kubeconfigPath}.home` },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    try {
      for (let i = 0; i < 200 && !/^c\s+(\d+\s+)?\d+[smhd]\s*$/m.test(out); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(out).toMatch(/^c\s+(\d+\s+)?\d+[smhd]\s*$/m);
      const created = await suite.api.request('POST', '/api/v1/namespaces/demo/configmaps', {
        body: { metadata: { name: 'later' }, data: { x: 'y' } },
      });
      expect(created.status).toBe(201);
      for (let i = 0; i < 200 && !out.includes('later'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('later');
    } finally {
      child.kill();
    }

    expect(await k('-n', 'demo', 'delete', 'cm', 'c')).toMatchObject({
      code: 0,
      stdout: 'configmap "c" deleted\n',
    });
    const gone = await k('-n', 'demo', 'get', 'cm', 'c');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('Error from server (NotFound): configmaps "c" not found');
  });

  it("kubectl get --raw '/livez?verbose'", async () => {
    const r = await k('get', '--raw', '/livez?verbose');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[+]ping ok');
    expect(r.stdout).toContain('livez check passed');
  });

  it('kubectl auth whoami and auth can-i', async () => {
    const who = await k('auth', 'whoami');
    expect(who.code).toBe(0);
    expect(who.stdout).toMatch(/Username\s+admin/);
    expect(who.stdout).toContain('system:masters');
    const can = await k('auth', 'can-i', 'create', 'configmaps');
    expect(can.stdout.trim()).toBe('yes');
  });

  it('kubectl create secret / serviceaccount and label', async () => {
    expect((await k('create', 'secret', 'generic', 's', '--from-literal=x=y')).code).toBe(0);
    expect((await k('get', 'secret', 's', '-o', 'jsonpath={.data.x}')).stdout).toBe('eQ==');
    expect((await k('create', 'serviceaccount', 'robot')).stdout).toBe('serviceaccount/robot created\n');
    expect((await k('label', 'sa', 'robot', 'team=a')).stdout).toBe('serviceaccount/robot labeled\n');
    expect((await k('get', 'sa', '-l', 'team=a', '-o', 'name')).stdout).toBe('serviceaccount/robot\n');
  });

  it('kubectl get --chunk-size, label and field selectors, delete --all', async () => {
    expect((await k('create', 'ns', 'chunks')).code).toBe(0);
    for (const n of ['a', 'b', 'c', 'd', 'e'])
      expect((await k('-n', 'chunks', 'create', 'cm', n)).code).toBe(0);
    expect((await k('-n', 'chunks', 'label', 'cm', 'b', 'd', 'pick=yes')).code).toBe(0);
    const chunked = await k('-n', 'chunks', 'get', 'cm', '--chunk-size=2', '-o', 'name');
    expect(chunked.stdout).toBe('configmap/a\nconfigmap/b\nconfigmap/c\nconfigmap/d\nconfigmap/e\n');
    expect((await k('-n', 'chunks', 'get', 'cm', '-l', 'pick=yes', '-o', 'name')).stdout).toBe(
      'configmap/b\nconfigmap/d\n',
    );
    expect(
      (await k('-n', 'chunks', 'get', 'cm', '--field-selector', 'metadata.name=c', '-o', 'name')).stdout,
    ).toBe('configmap/c\n');
    const del = await k('-n', 'chunks', 'delete', 'cm', '--all');
    expect(del.code).toBe(0);
    expect(del.stdout.trim().split('\n')).toHaveLength(5);
    const none = await k('-n', 'chunks', 'get', 'cm');
    expect(none.stderr).toContain('No resources found in chunks namespace.');
  });

  it('prints upstream error messages', async () => {
    const dup = await k('create', 'ns', 'demo');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('namespaces "demo" already exists');
    const bad = await k('create', 'configmap', 'Bad_Name');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Bad_Name');
  });
});
