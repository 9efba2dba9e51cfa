import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
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
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data)
      .map(([key, v]) => `  ${key}: "${v}"`)
      .join('\n')}\n`;
  const managers = (obj: { metadata: { managedFields?: { manager: string; operation: string; fieldsV1: unknown }[] } }) =>
    Object.fromEntries((obj.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

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
    const scale = await k('patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":5}}', '--field-manager=autoscaler');
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
});
