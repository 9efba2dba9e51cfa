import { kubectl, kubectlAvailable, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetCrd } from './helpers/widget-crd.js';

/**
 * CRDs and built-ins through stock kubectl (`--flavor kubernetes`): apply/get/patch/explain/delete of
 * a custom resource, every reason of a non-structural CRD, `kubectl scale` and `kubectl explain`.
 */

/** Waits for a condition the server reaches asynchronously (bounded: 1000 ms). */
const until = (check: () => Promise<boolean>, what: string) => waitFor(what, check, 1000);

// Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
describe.skipIf(!kubectlAvailable())('CRDs with kubectl (kubernetes flavor)', () => {
  let api: TestServer;
  const k = (args: string[], input?: string) =>
    kubectl(
      args,
      input === undefined ? { kubeconfig: api.kubeconfigPath } : { kubeconfig: api.kubeconfigPath, input },
    );
  const crdYaml = JSON.stringify(widgetCrd('x-kubernetes-', 'apiextensions.k8s.io'));
  const cr = (color: string, extra = '') =>
    `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  color: ${color}\n${extra}`;

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('kubectl apply of a CRD, then get/apply/patch/explain/delete of its resource', async () => {
    expect(await k(['apply', '-f', '-'], crdYaml)).toMatchObject({
      code: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n',
    });
    await until(
      async () =>
        (await api.request('GET', '/apis/example.com/v1/namespaces/default/widgets')).status === 200,
      'served',
    );
    expect(await k(['apply', '-f', '-'], cr('red'))).toMatchObject({
      code: 0,
      stdout: 'widget.example.com/w created\n',
    });
    const get = await k(['get', 'widgets']);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/^NAME\s+/);
    expect(get.stdout).toMatch(/\nw\s+/);
    // Client-side apply of a custom resource uses a JSON merge patch (no strategic for CRs).
    expect(await k(['apply', '-f', '-'], cr('blue', '  size: 5\n'))).toMatchObject({
      code: 0,
      stdout: 'widget.example.com/w configured\n',
    });
    expect((await k(['get', 'wd', 'w', '-o', 'jsonpath={.spec.color} {.spec.size}'])).stdout).toBe('blue 5');
    expect(await k(['patch', 'widget', 'w', '--type=merge', '-p', '{"spec":{"size":6}}'])).toMatchObject({
      code: 0,
      stdout: 'widget.example.com/w patched\n',
    });
    const strategic = await k(['patch', 'widget', 'w', '-p', '{"spec":{"size":7}}']);
    expect(strategic.code).toBe(1);
    expect(strategic.stderr).toContain(
      'application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Widget',
    );
    const strict = await k(['apply', '-f', '-'], cr('blue', '  bogus: 1\n'));
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('unknown field "spec.bogus"');
    const explain = await k(['explain', 'widget.spec']);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stdout).toContain('How big the widget is.');
    const explainMeta = await k(['explain', 'widget.metadata.labels']);
    expect(explainMeta.code, explainMeta.stderr).toBe(0);
    expect(explainMeta.stdout).toContain('FIELD: labels <map[string]string>');
    expect(await k(['delete', 'widget', 'w'])).toMatchObject({
      code: 0,
      stdout: 'widget.example.com "w" deleted\n',
    });
    expect(await k(['delete', '-f', '-'], crdYaml)).toMatchObject({ code: 0 });
  });

  it('kubectl apply of a non-structural CRD prints every reason', async () => {
    const bad = widgetCrd('x-kubernetes-', 'apiextensions.k8s.io') as any;
    bad.metadata.name = 'gadgets.example.com';
    bad.spec.names = { plural: 'gadgets', kind: 'Gadget' };
    bad.spec.versions[0].schema.openAPIV3Schema = {
      type: 'object',
      properties: { spec: { properties: { a: { type: 'string' } } } },
    };
    const r = await k(['apply', '-f', '-'], JSON.stringify(bad));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The CustomResourceDefinition "gadgets.example.com" is invalid');
    expect(r.stderr).toContain(
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    );
  });

  it('kubectl scale deployment', async () => {
    const d = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: s\n  namespace: default\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: s}\n  template:\n    metadata:\n      labels: {app: s}\n    spec:\n      containers:\n      - name: c\n        image: i\n`;
    expect((await k(['apply', '-f', '-'], d)).code).toBe(0);
    expect(await k(['scale', 'deployment', 's', '--replicas=3'])).toMatchObject({
      code: 0,
      stdout: 'deployment.apps/s scaled\n',
    });
    expect((await k(['get', 'deploy', 's', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('3');
  });

  it('kubectl explain deployment.spec.template.spec.containers', async () => {
    const r = await k(['explain', 'deployment.spec.template.spec.containers']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('KIND:       Deployment');
    expect(r.stdout).toContain('FIELD: containers <[]Object>');
    expect(r.stdout).toMatch(/\n {2}image\t<string>/);
    expect(r.stdout).toMatch(/\n {2}ports\t<\[\]Object>/);
  });
});
