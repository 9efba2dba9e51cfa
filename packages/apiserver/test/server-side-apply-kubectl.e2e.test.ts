import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdFixture, kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Server-side apply end to end with stock kubectl 1.32 under the `kubernetes` flavor (spec doc 1
 * §4.9; kubectl-wire §5). Skipped (with this reason) on machines without /usr/bin/kubectl.
 */
describe.skipIf(!kubectlAvailable())('server-side apply with kubectl (kubernetes flavor)', () => {
  let api: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'orchard-ssa-e2e-'));
  let n = 0;
  const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
  /** `kubectl apply --server-side -f <file with yaml>` plus extra flags. */
  const apply = (yaml: string, ...flags: string[]) => {
    const f = join(dir, `m${n++}.yaml`);
    writeFileSync(f, yaml);
    return k('apply', '--server-side', '-f', f, ...flags);
  };
  const getJson = async (...args: string[]) => {
    const r = await k('get', ...args, '-o', 'json', '--show-managed-fields');
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout);
  };
  const cm = (name: string, data: Record<string, string>) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(
      data,
    )
      .map(([key, v]) => `  ${key}: "${v}"`)
      .join('\n')}\n`;
  const managers = (obj: {
    metadata: { managedFields?: { manager: string; operation: string; fieldsV1: unknown }[] };
  }) =>
    Object.fromEntries(
      (obj.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]),
    );

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('creates with apply, then two managers with overlapping fields conflict; --force-conflicts resolves', async () => {
    const first = await apply(cm('two', { color: 'red', size: 'L' }));
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('configmap/two serverside-applied');
    const second = await apply(cm('two', { color: 'blue' }), '--field-manager=other');
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.color');
    const forced = await apply(cm('two', { color: 'blue' }), '--field-manager=other', '--force-conflicts');
    expect(forced.stderr).toBe('');
    expect(forced.stdout.trim()).toBe('configmap/two serverside-applied');
    const obj = await getJson('configmap', 'two');
    expect(obj.data).toEqual({ color: 'blue', size: 'L' });
    expect(managers(obj)).toEqual({
      'kubectl/Apply': { 'f:data': { 'f:size': {} } },
      'other/Apply': { 'f:data': { 'f:color': {} } },
    });
  });

  it('shared ownership: the same value from two managers is shared; a later change conflicts', async () => {
    expect((await apply(cm('shared', { color: 'red' }))).code).toBe(0);
    expect((await apply(cm('shared', { color: 'red' }), '--field-manager=other')).code).toBe(0);
    expect(managers(await getJson('configmap', 'shared'))).toEqual({
      'kubectl/Apply': { 'f:data': { 'f:color': {} } },
      'other/Apply': { 'f:data': { 'f:color': {} } },
    });
    const change = await apply(cm('shared', { color: 'green' }));
    expect(change.code).not.toBe(0);
    expect(change.stderr).toContain('Apply failed with 1 conflict: conflict with "other": .data.color');
    // The co-owner gives up its claim by applying without the field; then the change goes through.
    expect((await apply(cm('shared', { other: 'x' }), '--field-manager=other')).code).toBe(0);
    expect((await apply(cm('shared', { color: 'green' }))).code).toBe(0);
    expect((await getJson('configmap', 'shared')).data).toEqual({ color: 'green', other: 'x' });
  });

  it('dropping a field the applier owned alone removes it', async () => {
    expect((await apply(cm('drop', { color: 'red', size: 'L' }))).code).toBe(0);
    expect((await apply(cm('drop', { color: 'red' }))).code).toBe(0);
    const obj = await getJson('configmap', 'drop');
    expect(obj.data).toEqual({ color: 'red' });
    expect(managers(obj)).toEqual({ 'kubectl/Apply': { 'f:data': { 'f:color': {} } } });
  });

  it('--dry-run=server answers with the applied object and stores nothing', async () => {
    const r = await apply(cm('dry', { color: 'red' }), '--dry-run=server');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('configmap/dry serverside-applied (server dry run)');
    expect((await k('get', 'configmap', 'dry')).code).not.toBe(0);
    expect((await apply(cm('dry', { color: 'red' }))).code).toBe(0);
    const dry = await apply(cm('dry', { color: 'blue' }), '--dry-run=server', '-o', 'json');
    expect(JSON.parse(dry.stdout).data).toEqual({ color: 'blue' });
    expect((await getJson('configmap', 'dry')).data).toEqual({ color: 'red' });
    const conflict = await apply(cm('dry', { color: 'blue' }), '--dry-run=server', '--field-manager=other');
    expect(conflict.stderr).toContain('conflict with "kubectl": .data.color');
  });

  const deployment = (name: string, replicas?: number, image = 'nginx:1.25') =>
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: app
        image: ${image}
`;
  const replicasOnly = (name: string, replicas: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  replicas: ${replicas}\n`;

  it('replica-count handover (spec doc 1 §4.9 item 8): dropping replicas unclaimed resets it to 1', async () => {
    expect((await apply(deployment('unsafe', 3))).stderr).toBe('');
    expect((await getJson('deployment', 'unsafe')).spec.replicas).toBe(3);
    expect((await apply(deployment('unsafe'))).stderr).toBe('');
    expect((await getJson('deployment', 'unsafe')).spec.replicas).toBe(1);
  });

  it('replica-count handover: the safe recipe through a private manager', async () => {
    expect((await apply(deployment('web', 3))).stderr).toBe('');
    // 1. Apply only replicas under a private manager name: shared ownership with kubectl.
    expect((await apply(replicasOnly('web', 3), '--field-manager=handover-to-hpa')).stderr).toBe('');
    // 2. Drop replicas from the main configuration: the private manager still owns it, it stays.
    expect((await apply(deployment('web'))).stderr).toBe('');
    let obj = await getJson('deployment', 'web');
    expect(obj.spec.replicas).toBe(3);
    expect(Object.keys(managers(obj)).sort()).toEqual(['handover-to-hpa/Apply', 'kubectl/Apply']);
    // 3. The autoscaler writes replicas: it takes the field, the emptied private manager disappears.
    const scale = await k(
      'patch',
      'deployment',
      'web',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":5}}',
      '--field-manager=autoscaler',
    );
    expect(scale.stderr).toBe('');
    obj = await getJson('deployment', 'web');
    expect(obj.spec.replicas).toBe(5);
    const m = managers(obj);
    expect(Object.keys(m).sort()).toEqual(['autoscaler/Update', 'kubectl/Apply']);
    expect(m['autoscaler/Update']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    // A later apply of the main configuration leaves the autoscaler's value alone.
    expect((await apply(deployment('web', undefined, 'nginx:1.26'))).stderr).toBe('');
    expect((await getJson('deployment', 'web')).spec.replicas).toBe(5);
  });

  it('migration from client-side apply (spec doc 1 §4.9 item 11): no conflicts on last-applied fields, annotation kept up to date', async () => {
    const f = join(dir, 'csa.yaml');
    writeFileSync(f, cm('csa', { color: 'red', size: 'L' }));
    const csa = await k('apply', '-f', f);
    expect(csa.stderr).toBe('');
    expect(csa.stdout.trim()).toBe('configmap/csa created');
    expect(Object.keys(managers(await getJson('configmap', 'csa')))).toEqual([
      'kubectl-client-side-apply/Update',
    ]);
    // Server-side apply over it: fields of the last-applied configuration do not conflict.
    const ssa = await apply(cm('csa', { color: 'green', size: 'L' }));
    expect(ssa.stderr).toBe('');
    const obj = await getJson('configmap', 'csa');
    expect(obj.data).toEqual({ color: 'green', size: 'L' });
    const last = JSON.parse(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(last.data).toEqual({ color: 'green', size: 'L' });
    expect(managers(obj)['kubectl/Apply']).toEqual({ 'f:data': { 'f:color': {}, 'f:size': {} } });
    // Downgrade: client-side apply still works from the up-to-date annotation.
    writeFileSync(f, cm('csa', { color: 'green' }));
    const down = await k('apply', '-f', f);
    expect(down.stderr).toBe('');
    expect(down.stdout.trim()).toBe('configmap/csa configured');
    expect((await getJson('configmap', 'csa')).data).toEqual({ color: 'green' });
  });

  it('migration: a field changed by another writer since the last client-side apply conflicts', async () => {
    const f = join(dir, 'csa2.yaml');
    writeFileSync(f, cm('csa2', { color: 'red' }));
    expect((await k('apply', '-f', f)).code).toBe(0);
    expect(
      (
        await k(
          'patch',
          'configmap',
          'csa2',
          '--type=merge',
          '-p',
          '{"data":{"color":"pink"}}',
          '--field-manager=editor',
        )
      ).code,
    ).toBe(0);
    const r = await apply(cm('csa2', { color: 'green' }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Apply failed with 1 conflict: conflict with "editor" using v1: .data.color');
  });

  it('kubectl scale writes replicas through /scale: recorded with the sub-resource, conflicting with a later apply', async () => {
    expect((await apply(deployment('scaled', 3))).stderr).toBe('');
    const scale = await k('scale', 'deployment', 'scaled', '--replicas=4');
    expect(scale.stderr).toBe('');
    const obj = await getJson('deployment', 'scaled');
    expect(obj.spec.replicas).toBe(4);
    const entry = obj.metadata.managedFields.find((e: { subresource?: string }) => e.subresource === 'scale');
    expect(entry).toMatchObject({
      operation: 'Update',
      apiVersion: 'apps/v1',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    expect(managers(obj)['kubectl/Apply']).not.toHaveProperty(['f:spec', 'f:replicas']);
    const again = await apply(deployment('scaled', 3));
    expect(again.stderr).toContain(
      `Apply failed with 1 conflict: conflict with "${entry.manager}" with subresource "scale" using apps/v1: .spec.replicas`,
    );
  });

  it('custom resources: lists without markers are atomic, list-maps and maps granular', async () => {
    const crd = JSON.stringify(
      crdFixture({
        group: 'example.com',
        plural: 'widgets',
        kind: 'Widget',
        spec: {
          args: { type: 'array', items: { type: 'string' } },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port'],
            items: {
              type: 'object',
              required: ['port'],
              properties: { port: { type: 'integer' }, name: { type: 'string' } },
            },
          },
          settings: { type: 'object', additionalProperties: { type: 'string' } },
        },
      }),
    );
    const f = join(dir, 'crd.json');
    writeFileSync(f, crd);
    expect((await k('apply', '--server-side', '-f', f)).stderr).toBe('');
    const widget = (ports: string, extra = '') =>
      `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\nspec:\n  ports:\n${ports}${extra}`;
    let created = { stderr: 'not yet', code: 1 as number | null };
    for (let i = 0; i < 50 && created.code !== 0; i++) {
      created = await apply(widget('  - {port: 80, name: http}\n', '  args: [a, b]\n  settings: {p: "1"}\n'));
      if (created.code !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(created.stderr).toBe('');
    expect(
      (
        await apply(
          widget('  - {port: 443, name: https}\n', '  settings: {q: "2"}\n'),
          '--field-manager=other',
        )
      ).stderr,
    ).toBe('');
    const obj = await getJson('widget', 'w1');
    expect(obj.spec).toEqual({
      ports: [
        { port: 80, name: 'http' },
        { port: 443, name: 'https' },
      ],
      args: ['a', 'b'],
      settings: { p: '1', q: '2' },
    });
    expect(managers(obj)).toEqual({
      'kubectl/Apply': {
        'f:spec': {
          'f:args': {},
          'f:ports': { 'k:{"port":80}': { '.': {}, 'f:name': {}, 'f:port': {} } },
          'f:settings': { 'f:p': {} },
        },
      },
      'other/Apply': {
        'f:spec': {
          'f:ports': { 'k:{"port":443}': { '.': {}, 'f:name': {}, 'f:port': {} } },
          'f:settings': { 'f:q': {} },
        },
      },
    });
    const atomic = await apply(
      widget('  - {port: 443, name: https}\n', '  args: [c]\n'),
      '--field-manager=other',
    );
    expect(atomic.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.args');
  });

  it('kubectl diff --server-side shows what an apply would change, and stores nothing', async () => {
    expect((await apply(cm('diffed', { color: 'red' }))).code).toBe(0);
    const f = join(dir, 'diffed.yaml');
    writeFileSync(f, cm('diffed', { color: 'blue' }));
    const d = await k('diff', '--server-side', '-f', f);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(/^-\s+color: red$/m);
    expect(d.stdout).toMatch(/^\+\s+color: blue$/m);
    expect((await getJson('configmap', 'diffed')).data).toEqual({ color: 'red' });
    writeFileSync(f, cm('diffed', { color: 'red' }));
    const same = await k('diff', '--server-side', '-f', f);
    expect(same).toMatchObject({ code: 0, stdout: '' });
  });
});
