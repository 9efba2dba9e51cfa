import * as k8s from '@kubernetes/client-node';
import { installCrd, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames } from './helpers/flavors.js';
import { gadgetCrd } from './helpers/widget-crd.js';

/**
 * @kubernetes/client-node 2.0.1 (undici pinned to 7.16.0 on Node 20) against the reference server,
 * with only the kubeconfig the server wrote (HTTPS, admin client certificate): the typed APIs
 * (CoreV1Api, AppsV1Api) for every verb and their ApiException codes, `Watch`,
 * `KubernetesObjectApi` (discovery-driven generic CRUD and server-side apply with fieldManager and
 * force), and `CustomObjectsApi` on a CustomResourceDefinition. The informer through a forced 410
 * is in real-clients-410.e2e.test.ts. Both flavors: the client's typed paths are the core group and
 * the unqualified `apps` group, which the `orch` flavor serves under the same names.
 */

/** The HTTP code of a rejected client-node call (an `ApiException`). */
async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof k8s.ApiException) return e.code;
    throw e;
  }
  throw new Error('the call succeeded');
}

/** The Status body of a rejected client-node call. */
async function statusOf(p: Promise<unknown>): Promise<k8s.V1Status> {
  try {
    await p;
  } catch (e) {
    if (e instanceof k8s.ApiException)
      return (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as k8s.V1Status;
    throw e;
  }
  throw new Error('the call succeeded');
}

describe.each(flavorNames)('@kubernetes/client-node 2.0.1 (%s flavor)', (flavor) => {
  let api: TestServer;
  let kc: k8s.KubeConfig;
  const ns = 'cn';

  beforeAll(async () => {
    api = await startTestServer({ flavor });
    kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    await kc.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name: ns } } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('CoreV1Api: create, read, list with a label selector, replace, patch, delete, and error codes', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } },
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'b' } } });

    const read = await core.readNamespacedConfigMap({ name: 'a', namespace: ns });
    expect(read.data).toEqual({ k: 'v' });
    const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=x' });
    expect(list.items.map((c) => c.metadata?.name)).toEqual(['a']);
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    const all = await core.listConfigMapForAllNamespaces({ fieldSelector: `metadata.namespace=${ns}` });
    expect(all.items.map((c) => c.metadata?.name).sort()).toEqual(['a', 'b']);

    const replaced = await core.replaceNamespacedConfigMap({
      name: 'a',
      namespace: ns,
      body: { ...read, data: { k: 'w' } },
    });
    expect(replaced.data).toEqual({ k: 'w' });
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(
      Number(read.metadata?.resourceVersion),
    );
    // A stale resourceVersion is a 409 Conflict.
    expect(await codeOf(core.replaceNamespacedConfigMap({ name: 'a', namespace: ns, body: read }))).toBe(409);

    // client-node sends application/json-patch+json for patch calls by default.
    const patched = await core.patchNamespacedConfigMap({
      name: 'a',
      namespace: ns,
      body: [{ op: 'add', path: '/data/extra', value: '1' }],
    });
    expect(patched.data).toEqual({ k: 'w', extra: '1' });
    const merged = await core.patchNamespacedConfigMap(
      { name: 'a', namespace: ns, body: { data: { extra: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merged.data).toEqual({ k: 'w' });
    const strategic = await core.patchNamespacedConfigMap(
      { name: 'a', namespace: ns, body: { metadata: { labels: { tier: 'web' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.metadata?.labels).toEqual({ app: 'x', tier: 'web' });

    expect(await codeOf(core.readNamespacedConfigMap({ name: 'nope', namespace: ns }))).toBe(404);
    const dup = await statusOf(
      core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'a' } } }),
    );
    expect(dup).toMatchObject({ kind: 'Status', code: 409, reason: 'AlreadyExists' });
    const invalid = await statusOf(
      core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'Bad_Name' } } }),
    );
    expect(invalid).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'ConfigMap' } });
    expect(invalid.details?.causes?.[0]?.field).toBe('metadata.name');

    const deleted = await core.deleteNamespacedConfigMap({ name: 'b', namespace: ns });
    expect(deleted).toBeDefined();
    expect(await codeOf(core.readNamespacedConfigMap({ name: 'b', namespace: ns }))).toBe(404);
    expect(await codeOf(core.deleteNamespacedConfigMap({ name: 'b', namespace: ns }))).toBe(404);
  });

  it('AppsV1Api: a Deployment is created, defaulted, scaled through its scale subresource, and listed', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const d = await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    // Defaults applied by the server, decoded into the typed model.
    expect(d.spec?.replicas).toBe(1);
    expect(d.spec?.strategy?.type).toBe('RollingUpdate');
    expect(d.spec?.template.spec?.containers[0]?.imagePullPolicy).toBe('Always');
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: ns });
    expect(scale.spec?.replicas).toBe(1);
    await apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace: ns,
      body: { ...scale, spec: { replicas: 3 } },
    });
    const list = await apps.listNamespacedDeployment({ namespace: ns });
    expect(list.items.map((x) => [x.metadata?.name, x.spec?.replicas])).toEqual([['web', 3]]);
    expect(await codeOf(apps.readNamespacedDeployment({ name: 'nope', namespace: ns }))).toBe(404);
    await apps.deleteNamespacedDeployment({ name: 'web', namespace: ns });
  });

  it('Watch: ADDED, MODIFIED and DELETED events with their objects, from a resourceVersion', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const listed = await core.listNamespacedConfigMap({ namespace: ns });
    const events: string[] = [];
    let ended: unknown = 'open';
    const controller = await new k8s.Watch(kc).watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: listed.metadata?.resourceVersion, labelSelector: 'w=1' },
      (phase, obj: k8s.V1ConfigMap) => events.push(`${phase} ${obj.metadata?.name} ${obj.data?.n ?? ''}`),
      (err) => {
        ended = err;
      },
    );
    try {
      await core.createNamespacedConfigMap({
        namespace: ns,
        body: { metadata: { name: 'w', labels: { w: '1' } }, data: { n: '1' } },
      });
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'other' } } });
      await core.patchNamespacedConfigMap(
        { name: 'w', namespace: ns, body: { data: { n: '2' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedConfigMap({ name: 'w', namespace: ns });
      await waitFor('three events', async () => events.length >= 3, 10_000);
      expect(events).toEqual(['ADDED w 1', 'MODIFIED w 2', 'DELETED w 2']);
      expect(ended).toBe('open');
    } finally {
      controller.abort();
    }
  });

  it('KubernetesObjectApi: generic CRUD through discovery and server-side apply with fieldManager and force', async () => {
    const client = k8s.KubernetesObjectApi.makeApiClient(kc);
    const spec = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa', namespace: ns },
      data: { color: 'red', size: 'L' },
    };
    const applied = await client.patch<k8s.V1ConfigMap>(
      spec,
      undefined,
      undefined,
      'tool-a',
      false,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect(applied.metadata?.managedFields).toEqual([
      expect.objectContaining({ manager: 'tool-a', operation: 'Apply', apiVersion: 'v1' }),
    ]);
    const ssaHeader = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: ns } };
    const read = await client.read<k8s.V1ConfigMap>(ssaHeader);
    expect(read.data).toEqual({ color: 'red', size: 'L' });

    // Another manager changing an owned field conflicts (409 with the field named)…
    const other = { ...spec, data: { color: 'blue' } };
    const conflict = await statusOf(
      client.patch(other, undefined, undefined, 'tool-b', false, k8s.PatchStrategy.ServerSideApply),
    );
    expect(conflict).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(conflict.details?.causes).toEqual([
      expect.objectContaining({ reason: 'FieldManagerConflict', field: '.data.color' }),
    ]);
    // …and force takes the field over.
    const forced = await client.patch<k8s.V1ConfigMap>(
      other,
      undefined,
      undefined,
      'tool-b',
      true,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect(forced.data).toEqual({ color: 'blue', size: 'L' });
    expect(forced.metadata?.managedFields?.map((m) => m.manager).sort()).toEqual(['tool-a', 'tool-b']);
    // Server-side dry run changes nothing.
    const dry = await client.patch<k8s.V1ConfigMap>(
      { ...spec, data: { color: 'blue', size: 'S' } },
      undefined,
      'All',
      'tool-a',
      false,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect(dry.data?.size).toBe('S');
    expect((await client.read<k8s.V1ConfigMap>(ssaHeader)).data?.size).toBe('L');

    const listed = await client.list('v1', 'ConfigMap', ns);
    expect(listed.items.map((i) => i.metadata?.name)).toContain('ssa');
    await client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } });
    await client.delete({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } });
    expect(
      await codeOf(client.read({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } })),
    ).toBe(404);
  });

  it('CustomObjectsApi on a CRD: create, get, list, merge patch, status, server-side apply, delete', async () => {
    await installCrd(api, gadgetCrd(flavor));
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const where = { group: 'example.com', version: 'v1', namespace: ns, plural: 'gadgets' };
    const created = (await custom.createNamespacedCustomObject({
      ...where,
      body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { color: 'red' } },
    })) as { spec: Record<string, unknown>; metadata: { uid: string } };
    expect(created.spec).toEqual({ color: 'red', size: 1 });
    const got = (await custom.getNamespacedCustomObject({ ...where, name: 'g' })) as {
      metadata: { uid: string };
    };
    expect(got.metadata.uid).toBe(created.metadata.uid);
    const list = (await custom.listNamespacedCustomObject(where)) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('GadgetList');
    expect(list.items).toHaveLength(1);

    const patched = (await custom.patchNamespacedCustomObject(
      { ...where, name: 'g', body: { spec: { size: 4 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as { spec: Record<string, unknown> };
    expect(patched.spec).toEqual({ color: 'red', size: 4 });
    // Strategic merge patch is not supported for custom resources: 415.
    expect(
      await codeOf(
        custom.patchNamespacedCustomObject(
          { ...where, name: 'g', body: { spec: { size: 5 } } },
          k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
        ),
      ),
    ).toBe(415);
    const status = (await custom.patchNamespacedCustomObjectStatus(
      { ...where, name: 'g', body: { status: { ready: true } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as { status: Record<string, unknown>; spec: Record<string, unknown> };
    expect(status.status).toEqual({ ready: true });
    const applied = (await custom.patchNamespacedCustomObject(
      {
        ...where,
        name: 'g',
        fieldManager: 'gadget-tool',
        force: true,
        body: {
          apiVersion: 'example.com/v1',
          kind: 'Gadget',
          metadata: { name: 'g' },
          spec: { color: 'blue' },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
    )) as { spec: Record<string, unknown>; metadata: { managedFields: { manager: string }[] } };
    expect(applied.spec.color).toBe('blue');
    expect(applied.metadata.managedFields.map((m) => m.manager)).toContain('gadget-tool');
    // A schema violation is a 422 naming the field.
    const bad = await statusOf(
      custom.createNamespacedCustomObject({
        ...where,
        body: {
          apiVersion: 'example.com/v1',
          kind: 'Gadget',
          metadata: { name: 'h' },
          spec: { size: 'big' },
        },
      }),
    );
    expect(bad).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Gadget', name: 'h' } });
    expect(bad.details?.causes?.[0]?.field).toBe('spec.size');
    await custom.deleteNamespacedCustomObject({ ...where, name: 'g' });
    expect(await codeOf(custom.getNamespacedCustomObject({ ...where, name: 'g' }))).toBe(404);
  });
});
