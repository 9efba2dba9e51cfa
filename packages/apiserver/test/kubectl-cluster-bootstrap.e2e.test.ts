import {
  crdFixture,
  kubectl,
  kubectlAvailable,
  startTestServer,
  type TestServer,
  waitFor,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Stock kubectl (kubernetes flavor) meeting what a cluster provides beside the API (issue 19 items
 * 3 and 8): a CRD whose CEL rule upstream's cost estimator accepts is accepted through `kubectl
 * apply`, and a new namespace gets its `default` ServiceAccount and the `kube-root-ca.crt`
 * ConfigMap holding the server's CA.
 */
describe.skipIf(!kubectlAvailable())('kubectl: CEL cost of a CRD rule and namespace bootstrap', () => {
  let api: TestServer;
  const k = (args: string[], input?: string) =>
    kubectl(args, { kubeconfig: api.kubeconfigPath, ...(input ? { input } : {}) });
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes', publishRootCa: true });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('kubectl apply of a CRD with a prefix rule over an unbounded list succeeds, and the rule is enforced', async () => {
    const crd = JSON.stringify(
      crdFixture({
        group: 'example.com',
        plural: 'tagsets',
        kind: 'TagSet',
        schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              'x-kubernetes-validations': [
                { rule: "self.names.all(t, t.startsWith('t-'))", message: 'every name starts with t-' },
              ],
              properties: { names: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      }),
    );
    const applied = await k(['apply', '-f', '-'], crd);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain(
      'customresourcedefinition.apiextensions.k8s.io/tagsets.example.com created',
    );
    const obj = (names: string[]) =>
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'TagSet',
        metadata: { name: 'ts', namespace: 'default' },
        spec: { names },
      });
    // The CRD is served once established; kubectl's discovery may need a moment.
    let good = await k(['apply', '-f', '-'], obj(['t-a', 't-b']));
    await waitFor(
      'the custom resource to be served',
      async () => {
        if (good.code !== 0) good = await k(['apply', '-f', '-'], obj(['t-a', 't-b']));
        return good.code === 0;
      },
      20_000,
    );
    expect(good.stdout).toContain('tagset.example.com/ts created');
    const bad = await k(['apply', '-f', '-'], obj(['t-a', 'x']));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('every name starts with t-');
  });

  it('a namespace created with kubectl gets its default ServiceAccount and kube-root-ca.crt', async () => {
    expect((await k(['create', 'namespace', 'boot'])).code).toBe(0);
    let sa = await k(['get', 'serviceaccount', 'default', '-n', 'boot', '-o', 'name']);
    let cm = await k(['get', 'configmap', 'kube-root-ca.crt', '-n', 'boot', '-o', 'json']);
    await waitFor(
      'the namespace bootstrap objects',
      async () => {
        if (sa.code !== 0) sa = await k(['get', 'serviceaccount', 'default', '-n', 'boot', '-o', 'name']);
        if (cm.code !== 0) cm = await k(['get', 'configmap', 'kube-root-ca.crt', '-n', 'boot', '-o', 'json']);
        return sa.code === 0 && cm.code === 0;
      },
      20_000,
    );
    expect(sa.stdout.trim()).toBe('serviceaccount/default');
    const data = (JSON.parse(cm.stdout) as { data: Record<string, string> }).data;
    expect(data['ca.crt']).toContain('-----BEGIN CERTIFICATE-----');
  });
});
