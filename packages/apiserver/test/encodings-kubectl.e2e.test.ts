import { spawn } from 'node:child_process';
import {
  crdFixture,
  kubectl,
  kubectlAvailable,
  kubectlBinary,
  startTestServer,
  type TestServer,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Stock kubectl printing the server's Table columns. Skipped (with this reason) where /usr/bin/kubectl is absent. */
describe.skipIf(!kubectlAvailable())(
  'kubectl get prints server-side Table columns (kubernetes flavor)',
  () => {
    let api: TestServer;
    const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
    beforeAll(async () => {
      api = await startTestServer({ flavor: 'kubernetes' });
      await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cfg' },
          data: { a: '1', b: '2', c: '3' },
        },
      });
      await api.request('POST', '/api/v1/namespaces/default/pods', {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web' },
          spec: {
            containers: [
              { name: 'c', image: 'nginx' },
              { name: 'd', image: 'redis' },
            ],
            nodeName: 'node-7',
          },
        },
      });
    });
    afterAll(async () => {
      await api?.stop();
    });

    it('configmaps: NAME DATA AGE with the Data count', async () => {
      const r = await k('get', 'configmaps');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+DATA\s+AGE\n/);
      expect(r.stdout).toMatch(/\ncfg\s+3\s+\d+s\n/);
    });

    it('pods: NAME READY STATUS RESTARTS AGE, and the wide columns with -o wide', async () => {
      const r = await k('get', 'pods');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
      expect(r.stdout).toMatch(/\nweb\s+0\/2\s+\S+\s+0\s+\d+s\n/);
      const wide = await k('get', 'pods', '-o', 'wide');
      expect(wide.stdout).toMatch(
        /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\n/,
      );
      expect(wide.stdout).toMatch(/\nweb\s+0\/2\s+\S+\s+0\s+\d+s\s+<none>\s+node-7\s+<none>\s+<none>\n/);
    });

    it("-A, --show-labels and --sort-by use the rows' objects (includeObject)", async () => {
      await api.request('POST', '/api/v1/namespaces/kube-system/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'aaa', labels: { tier: 'sys' } } },
      });
      const all = await k('get', 'configmaps', '-A', '--show-labels');
      expect(all.code).toBe(0);
      expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\s+LABELS\n/);
      expect(all.stdout).toMatch(/\nkube-system\s+aaa\s+0\s+\d+s\s+tier=sys\n/);
      expect(all.stdout).toMatch(/\ndefault\s+cfg\s+3\s+\d+s\s+<none>\n/);
      const sorted = await k('get', 'configmaps', '-A', '--sort-by=.metadata.name', '-o', 'name');
      expect(sorted.code).toBe(0);
      const names = sorted.stdout.trim().split('\n');
      expect(names).toEqual([...names].sort());
      const table = await k('get', 'configmaps', '-A', '--sort-by=.metadata.name');
      expect(table.code).toBe(0);
      expect(table.stdout.indexOf('aaa')).toBeLessThan(table.stdout.indexOf('cfg'));
    });

    it('a CRD with printer columns prints them', async () => {
      const crd = crdFixture({
        group: 'example.com',
        plural: 'gadgets',
        kind: 'Gadget',
        listKind: 'GadgetList',
        spec: { color: { type: 'string' }, size: { type: 'integer' } },
        versionFields: {
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      });
      expect(
        (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd }))
          .status,
      ).toBe(201);
      let status = 0;
      for (let i = 0; i < 100 && status !== 201; i++) {
        status = (
          await api.request('POST', '/apis/example.com/v1/namespaces/default/gadgets', {
            body: {
              apiVersion: 'example.com/v1',
              kind: 'Gadget',
              metadata: { name: 'g1' },
              spec: { color: 'red', size: 7 },
            },
          })
        ).status;
        if (status !== 201) await new Promise((r) => setTimeout(r, 50));
      }
      const r = await k('get', 'gadgets');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+COLOR\s+SIZE\s+AGE\n/);
      expect(r.stdout).toMatch(/\ng1\s+red\s+7\s+\d+s\n/);
    });

    it('get -w streams Table rows for later changes', async () => {
      const child = spawn(
        kubectlBinary(),
        [
          `--kubeconfig=${api.kubeconfigPath}`,
          `--cache-dir=${api.kubeconfigPath}.wcache`,
          'get',
          'configmaps',
          '-w',
        ],
        { env: { PATH: process.env.PATH ?? '/usr/bin', HOME: `${api.kubeconfigPath}.whome` } },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      try {
        for (let i = 0; i < 200 && !/\ncfg\s+3\s+/.test(out); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(/^NAME\s+DATA\s+AGE\n/);
        await api.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' }, data: { x: 'y' } },
        });
        for (let i = 0; i < 200 && !/\nlater\s+1\s+/.test(out); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(/\nlater\s+1\s+\d+s\n/);
        // Watch rows carry no header again.
        expect(out.match(/NAME\s+DATA\s+AGE/g)).toHaveLength(1);
      } finally {
        child.kill();
      }
    });
  },
);
