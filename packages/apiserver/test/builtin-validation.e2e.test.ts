import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * Validation of built-in kinds beyond their schemas, with upstream's fields and messages (issue
 * 19 item 6): what a 1.32 cluster answers for the same bodies.
 */
describe.each(flavorNames)('built-in validation beyond the schema (%s flavor)', (flavorName) => {
  const { kubectl: withKubectl } = flavorUnderTest(flavorName);
  let api: TestServer;
  const ns = '/api/v1/namespaces/default';
  const deployments = '/apis/apps/v1/namespaces/default/deployments';
  let seq = 0;

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  const causes = (json: unknown) =>
    ((json as { details?: { causes?: { field: string; message: string; reason: string }[] } }).details
      ?.causes ?? []) as { field: string; message: string; reason: string }[];
  const pod = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `v${++seq}` },
    spec,
  });

  it.each([
    ['no containers', {}, [['spec.containers', 'Required value']]],
    [
      'a container without image',
      { containers: [{ name: 'a' }] },
      [['spec.containers[0].image', 'Required value']],
    ],
    [
      'a bad container name',
      { containers: [{ name: 'A_b', image: 'x' }] },
      [['spec.containers[0].name', 'Invalid value: "A_b": a lowercase RFC 1123 label must consist of']],
    ],
    [
      'duplicate container names across lists',
      { containers: [{ name: 'a', image: 'x' }], initContainers: [{ name: 'a', image: 'x' }] },
      [['spec.initContainers[0].name', 'Duplicate value: "a"']],
    ],
    [
      'a port out of range',
      { containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 70000 }] }] },
      [
        [
          'spec.containers[0].ports[0].containerPort',
          'Invalid value: 70000: must be between 1 and 65535, inclusive',
        ],
      ],
    ],
    [
      'a bad port name',
      {
        containers: [
          { name: 'a', image: 'x', ports: [{ containerPort: 80, name: 'way-too-long-port-name' }] },
        ],
      },
      [['spec.containers[0].ports[0].name', 'must be no more than 15 characters']],
    ],
    [
      'an unknown restart policy',
      { containers: [{ name: 'a', image: 'x' }], restartPolicy: 'Sometimes' },
      [
        [
          'spec.restartPolicy',
          'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        ],
      ],
    ],
    [
      'a request above its limit',
      {
        containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }],
      },
      [
        [
          'spec.containers[0].resources.requests',
          'Invalid value: "2": must be less than or equal to cpu limit of 1',
        ],
      ],
    ],
  ])('a Pod with %s is a 422 naming the field', async (_name, spec, expected) => {
    const r = await api.request('POST', `${ns}/pods`, { body: pod(spec) });
    expect(r.status).toBe(422);
    const got = causes(r.json);
    for (const [field, message] of expected as [string, string][]) {
      const cause = got.find((c) => c.field === field);
      expect(cause, `${field} in ${JSON.stringify(got)}`).toBeDefined();
      expect(cause?.message).toContain(message);
    }
  });

  it('a pod update may change images but nothing else of the spec, with upstream message', async () => {
    const created = await api.request('POST', `${ns}/pods`, {
      body: pod({ containers: [{ name: 'a', image: 'nginx:1' }] }),
    });
    expect(created.status).toBe(201);
    const name = (created.json as { metadata: { name: string } }).metadata.name;
    const merge = { 'content-type': 'application/strategic-merge-patch+json' };
    const image = await api.request('PATCH', `${ns}/pods/${name}`, {
      body: { spec: { containers: [{ name: 'a', image: 'nginx:2' }] } },
      headers: merge,
    });
    expect(image.status).toBe(200);
    const env = await api.request('PATCH', `${ns}/pods/${name}`, {
      body: { spec: { containers: [{ name: 'a', env: [{ name: 'X', value: '1' }] }] } },
      headers: merge,
    });
    expect(env.status).toBe(422);
    const [cause] = causes(env.json);
    expect(cause?.field).toBe('spec');
    expect(cause?.reason).toBe('FieldValueForbidden');
    expect(cause?.message).toContain(
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(cause?.message).toContain('spec.containers[0].env');
    const status = await api.request('PATCH', `${ns}/pods/${name}/status`, {
      body: { status: { phase: 'Running' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(status.status).toBe(200);
  });

  const deployment = (
    selector: unknown,
    labels: Record<string, string>,
    extra: Record<string, unknown> = {},
  ) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `d${++seq}` },
    spec: {
      selector,
      template: { metadata: { labels }, spec: { containers: [{ name: 'a', image: 'x' }] } },
      ...extra,
    },
  });

  it.each([
    ['no selector', deployment(undefined, { app: 'a' }), 'spec.selector', 'Required value'],
    [
      'a selector that does not match the template',
      deployment({ matchLabels: { app: 'b' } }, { app: 'a' }),
      'spec.template.metadata.labels',
      // Go's %#v of the labels, unquoted, as upstream's field error prints a map.
      'Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
    ],
    [
      'an empty selector',
      deployment({}, { app: 'a' }),
      'spec.selector',
      'empty selector is invalid for deployment',
    ],
    [
      'negative replicas',
      deployment({ matchLabels: { app: 'a' } }, { app: 'a' }, { replicas: -1 }),
      'spec.replicas',
      'Invalid value: -1: must be greater than or equal to 0',
    ],
  ])('a Deployment with %s is a 422 naming the field', async (_name, body, field, message) => {
    const r = await api.request('POST', deployments, { body });
    expect(r.status).toBe(422);
    const cause = causes(r.json).find((c) => c.field === field);
    expect(cause, JSON.stringify(causes(r.json))).toBeDefined();
    expect(cause?.message).toContain(message);
  });

  it('a Deployment selector is immutable', async () => {
    const body = deployment({ matchLabels: { app: 'a' } }, { app: 'a', tier: 'x' });
    expect((await api.request('POST', deployments, { body })).status).toBe(201);
    const r = await api.request('PATCH', `${deployments}/${body.metadata.name}`, {
      body: { spec: { selector: { matchLabels: { app: 'a', tier: 'x' } } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(r.status).toBe(422);
    const cause = causes(r.json).find((c) => c.field === 'spec.selector');
    expect(cause?.message).toContain('field is immutable');
  });

  const service = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `s${++seq}` },
    spec,
  });

  it.each([
    ['no ports', {}, 'spec.ports', 'Required value'],
    ['a port 0', { ports: [{ port: 0 }] }, 'spec.ports[0].port', 'must be between 1 and 65535, inclusive'],
    [
      'two unnamed ports',
      { ports: [{ port: 80 }, { port: 81, name: 'b' }] },
      'spec.ports[0].name',
      'Required value',
    ],
    ['an unknown type', { type: 'Magic', ports: [{ port: 80 }] }, 'spec.type', 'Unsupported value: "Magic"'],
    [
      'a nodePort on a ClusterIP service',
      { ports: [{ port: 80, nodePort: 30000 }] },
      'spec.ports[0].nodePort',
      "may not be used when `type` is 'ClusterIP'",
    ],
  ])('a Service with %s is a 422 naming the field', async (_name, spec, field, message) => {
    const r = await api.request('POST', `${ns}/services`, { body: service(spec) });
    expect(r.status).toBe(422);
    const cause = causes(r.json).find((c) => c.field === field);
    expect(cause, JSON.stringify(causes(r.json))).toBeDefined();
    expect(cause?.message).toContain(message);
  });

  it('a headless Service and an ExternalName Service need no ports', async () => {
    expect(
      (await api.request('POST', `${ns}/services`, { body: service({ clusterIP: 'None' }) })).status,
    ).toBe(201);
    const external = service({ type: 'ExternalName', externalName: 'example.com' });
    expect((await api.request('POST', `${ns}/services`, { body: external })).status).toBe(201);
  });

  it('a body with several invalid fields is one 422 naming every one of them', async () => {
    const fields = (json: unknown) => causes(json).map((c) => c.field);
    // Enum violations (restartPolicy, dnsPolicy) used to end the write before the pod rules ran.
    const body = pod({
      containers: [{ name: 'A_b' }, { name: 'ok', image: 'x', ports: [{ containerPort: 70000 }] }],
      restartPolicy: 'Sometimes',
      dnsPolicy: 'Weird',
    });
    const badPod = await api.request('POST', `${ns}/pods`, {
      body: { ...body, metadata: { ...body.metadata, labels: { app: '-bad-' } } },
    });
    expect(badPod.status).toBe(422);
    expect(fields(badPod.json).sort()).toEqual([
      'metadata.labels',
      'spec.containers[0].image',
      'spec.containers[0].name',
      'spec.containers[1].ports[0].containerPort',
      'spec.dnsPolicy',
      'spec.restartPolicy',
    ]);
    const restart = causes(badPod.json).find((c) => c.field === 'spec.restartPolicy');
    expect(restart?.message).toBe(
      'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
    const badDeployment = await api.request('POST', deployments, {
      body: deployment({ matchLabels: { app: 'b' } }, { app: 'a' }, { replicas: -1 }),
    });
    expect(badDeployment.status).toBe(422);
    expect(fields(badDeployment.json).sort()).toEqual(['spec.replicas', 'spec.template.metadata.labels']);
    const badService = await api.request('POST', `${ns}/services`, {
      body: service({ type: 'Magic', ports: [{ port: 0 }, { port: 81 }] }),
    });
    expect(badService.status).toBe(422);
    expect(fields(badService.json)).toEqual(
      expect.arrayContaining(['spec.type', 'spec.ports[0].port', 'spec.ports[0].name', 'spec.ports[1].name']),
    );
    expect((badService.json as { message: string }).message).toMatch(/^Service "s\d+" is invalid: \[/);
  });

  it('hostile and wrong-typed values stay 4xx, never 500', async () => {
    const bodies = [
      pod(JSON.parse('{"containers":[{"name":"a","image":"x","__proto__":{"x":1},"ports":"no"}]}')),
      pod({ containers: 'no' }),
      pod({ containers: [null, 1, 'x'] }),
      deployment('x', { app: 'a' }),
      service({ ports: [{ port: 'eighty' }] }),
    ];
    for (const body of bodies) {
      const r = await api.request(
        'POST',
        body.kind === 'Deployment' ? deployments : `${ns}/${body.kind.toLowerCase()}s`,
        {
          body,
        },
      );
      expect(r.status, r.text).toBeGreaterThanOrEqual(400);
      expect(r.status, r.text).toBeLessThan(500);
    }
  });

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl shows the pod-update refusal as upstream words it (kubernetes flavor only)',
    async () => {
      const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
      expect((await k('run', 'upd', '--image=nginx:1')).code).toBe(0);
      const r = await k('set', 'env', 'pod/upd', 'X=1');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('pod updates may not change fields other than');
    },
  );

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl: a Deployment selector that misses the template or changes is refused with upstream words (kubernetes flavor only)',
    async () => {
      const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
      const mismatch = await kubectl(['create', '-f', '-'], {
        kubeconfig: api.kubeconfigPath,
        input: JSON.stringify(deployment({ matchLabels: { app: 'b' } }, { app: 'a' })),
      });
      expect(mismatch.code).toBe(1);
      expect(mismatch.stderr).toMatch(
        /The Deployment "d\d+" is invalid: spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"a"\}: `selector` does not match template `labels`/,
      );
      expect((await k('create', 'deployment', 'sel', '--image=nginx')).code).toBe(0);
      const change = await k(
        'patch',
        'deployment',
        'sel',
        '-p',
        '{"spec":{"selector":{"matchLabels":{"x":"y"}},"template":{"metadata":{"labels":{"x":"y"}}}}}',
      );
      expect(change.code).toBe(1);
      expect(change.stderr).toContain('The Deployment "sel" is invalid: spec.selector: Invalid value: ');
      expect(change.stderr).toContain('field is immutable');
    },
  );
});
