import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { causesOf, expectCauses } from './helpers/causes.js';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * apps/v1 ReplicaSet as upstream serves it (issue 19 item 7): defaults, `status.replicas` 0 on
 * create, generation, validation with upstream's fields and messages, `/status`, `/scale`, and
 * kubectl's table. No controller runs ReplicaSets.
 */
describe.each(flavorNames)('apps/v1 ReplicaSet (%s flavor)', (flavorName) => {
  const { kubectl: withKubectl } = flavorUnderTest(flavorName);
  let api: TestServer;
  const rsPath = '/apis/apps/v1/namespaces/default/replicasets';
  const merge = { 'content-type': 'application/merge-patch+json' };

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  const rs = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec,
  });
  const template = (labels: Record<string, string>) => ({
    metadata: { labels },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  });

  it('create, get, list, update, delete with upstream defaults and generation', async () => {
    const created = await api.request('POST', rsPath, {
      body: rs('web', { selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }),
    });
    expect(created.status).toBe(201);
    const body = created.json as { metadata: { generation: number }; spec: any; status: unknown };
    expect(body.spec.replicas).toBe(1);
    expect(body.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(body.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(body.status).toEqual({ replicas: 0 });
    expect(body.metadata.generation).toBe(1);

    const list = await api.request('GET', rsPath);
    expect(list.status).toBe(200);
    expect((list.json as { kind: string; items: unknown[] }).kind).toBe('ReplicaSetList');

    const scaled = await api.request('PATCH', `${rsPath}/web`, {
      body: { spec: { replicas: 3 } },
      headers: merge,
    });
    expect(scaled.status).toBe(200);
    expect((scaled.json as { metadata: { generation: number } }).metadata.generation).toBe(2);

    const status = await api.request('PATCH', `${rsPath}/web/status`, {
      body: { status: { replicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2 } },
      headers: merge,
    });
    expect(status.status).toBe(200);
    const afterStatus = status.json as {
      metadata: { generation: number };
      status: { readyReplicas: number };
    };
    expect(afterStatus.status.readyReplicas).toBe(2);
    expect(afterStatus.metadata.generation).toBe(2);

    // A write of the main resource keeps the status the controller wrote.
    const relabel = await api.request('PATCH', `${rsPath}/web`, {
      body: { metadata: { labels: { tier: 'x' } }, status: { replicas: 99 } },
      headers: merge,
    });
    expect((relabel.json as { status: { replicas: number } }).status.replicas).toBe(3);

    const del = await api.request('DELETE', `${rsPath}/web`);
    expect(del.status).toBe(200);
    expect((await api.request('GET', `${rsPath}/web`)).status).toBe(404);
  });

  it('/scale reads and writes spec.replicas with the selector in string form', async () => {
    await api.request('POST', rsPath, {
      body: rs('sc', {
        replicas: 2,
        selector: { matchLabels: { app: 'sc' } },
        template: template({ app: 'sc', x: 'y' }),
      }),
    });
    const scale = await api.request('GET', `${rsPath}/sc/scale`);
    expect(scale.status).toBe(200);
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=sc' },
    });
    const put = await api.request('PATCH', `${rsPath}/sc/scale`, {
      body: { spec: { replicas: 5 } },
      headers: merge,
    });
    expect(put.status).toBe(200);
    const got = await api.request('GET', `${rsPath}/sc`);
    expect((got.json as { spec: { replicas: number } }).spec.replicas).toBe(5);
  });

  it.each([
    [
      'a selector that does not match the template',
      { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'b' }) },
      [['spec.template.metadata.labels', '`selector` does not match template `labels`']],
    ],
    [
      'negative replicas',
      { replicas: -1, selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) },
      [['spec.replicas', 'Invalid value: -1: must be greater than or equal to 0']],
    ],
    [
      'an empty selector (upstream says "deployment" here)',
      { selector: {}, template: template({ app: 'a' }) },
      [['spec.selector', 'empty selector is invalid for deployment']],
    ],
    ['no selector', { template: template({ app: 'a' }) }, [['spec.selector', 'Required value']]],
    [
      'a restartPolicy other than Always',
      {
        selector: { matchLabels: { app: 'a' } },
        template: {
          ...template({ app: 'a' }),
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] },
        },
      },
      [['spec.template.spec.restartPolicy', 'Unsupported value: "Never": supported values: "Always"']],
    ],
  ])('%s is a 422 naming the field', async (_name, spec, expected) => {
    const r = await api.request('POST', rsPath, { body: rs('bad', spec) });
    expect(r.status).toBe(422);
    expectCauses(r.json, expected as [string, string][]);
  });

  it('the selector is immutable', async () => {
    await api.request('POST', rsPath, {
      body: rs('imm', {
        selector: { matchLabels: { app: 'imm' } },
        template: template({ app: 'imm', v: '1' }),
      }),
    });
    const r = await api.request('PATCH', `${rsPath}/imm`, {
      body: { spec: { selector: { matchLabels: { app: 'imm', v: '1' } } } },
      headers: merge,
    });
    expect(r.status).toBe(422);
    const [cause] = causesOf(r.json);
    expect(cause?.field).toBe('spec.selector');
    expect(cause?.message).toContain('field is immutable');
  });

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl get rs prints NAME DESIRED CURRENT READY AGE; scale and explain work (kubernetes flavor only)',
    async () => {
      const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
      await api.request('POST', rsPath, {
        body: rs('shown', {
          replicas: 2,
          selector: { matchLabels: { app: 'shown' } },
          template: template({ app: 'shown' }),
        }),
      });
      const get = await k('get', 'rs', 'shown');
      expect(get.code, get.stderr).toBe(0);
      expect(get.stdout).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nshown\s+2\s+0\s+0\s+\S+\n$/);
      const wide = await k('get', 'replicaset', 'shown', '-o', 'wide');
      expect(wide.stdout).toMatch(/CONTAINERS\s+IMAGES\s+SELECTOR/);
      expect(wide.stdout).toMatch(/c\s+nginx:1\.27\s+app=shown/);
      const scale = await k('scale', 'rs', 'shown', '--replicas=4');
      expect(scale.code, scale.stderr).toBe(0);
      expect(scale.stdout).toBe('replicaset.apps/shown scaled\n');
      const explain = await k('explain', 'replicaset.spec.selector');
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain('KIND:       ReplicaSet');
      const describe = await k('describe', 'rs', 'shown');
      expect(describe.code, describe.stderr).toBe(0);
      expect(describe.stdout).toMatch(/Replicas:\s+0 current \/ 4 desired/);
    },
  );
});
