import { crdFixture, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cm, gadgets, json, openWatch, waitFor } from './lifecycle-helpers.js';

/**
 * Namespace lifecycle (spec doc 1 §2.1, §3): Terminating phase and the flavor finalizer, refusal of
 * new content, the namespace controller deleting built-in, custom (CRD) and registry-defined
 * objects, an object with a finalizer blocking the namespace until its "controller" (the test)
 * removes it, the upstream conditions, and the namespaces that may never be deleted.
 */
describe.each(['orch', 'kubernetes'] as const)('namespace lifecycle (%s flavor)', (flavor) => {
  let api: TestServer;
  const domain = flavor === 'orch' ? 'orch.io' : 'k8s.io';
  const finalizer = flavor === 'orch' ? 'orch' : 'kubernetes';
  const system = flavor === 'orch' ? 'orch-system' : 'kube-system';
  const publicNs = flavor === 'orch' ? 'orch-public' : 'kube-public';
  const crds = `/apis/apiextensions.${domain}/v1/customresourcedefinitions`;

  beforeAll(async () => {
    api = await startTestServer({ flavor, insecureHttp: true, server: { resources: [gadgets] } });
    const crd = await api.request('POST', crds, {
      body: crdFixture({
        flavor,
        group: 'example.com',
        plural: 'widgets',
        kind: 'Widget',
        schema: { type: 'object', [`x-${finalizer}-preserve-unknown-fields`]: true },
      }),
    });

    expect(crd.status).toBe(201);
    await waitFor(
      'widgets served',
      async () => (await api.request('GET', '/apis/example.com/v1/widgets')).status === 200,
    );
  });
  afterAll(async () => {
    await api.stop();
  });

  it('default namespaces exist; default, system and public ones may not be deleted (403)', async () => {
    const list = json<{ items: { metadata: { name: string } }[] }>(
      await api.request('GET', '/api/v1/namespaces'),
    );
    const names = list.items.map((i) => i.metadata.name);
    for (const n of ['default', system, publicNs, `${flavor === 'orch' ? 'orch' : 'kube'}-node-lease`])
      expect(names).toContain(n);
    for (const n of ['default', system, publicNs]) {
      const r = await api.request('DELETE', `/api/v1/namespaces/${n}`);
      expect(r.status).toBe(403);
      expect(json(r)).toMatchObject({
        reason: 'Forbidden',
        message: `namespaces "${n}" is forbidden: this namespace may not be deleted`,
      });
    }
  });

  it('a new namespace carries the flavor finalizer and phase Active', async () => {
    const r = await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fresh' } } });
    expect(r.status).toBe(201);
    expect(json(r)).toMatchObject({ spec: { finalizers: [finalizer] }, status: { phase: 'Active' } });
  });

  it('deleting a namespace empties it (built-in, CRD and registry types), waits for finalizers, then removes it', async () => {
    const ns = 'team-a';
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    const base = `/api/v1/namespaces/${ns}`;
    for (let i = 0; i < 5; i++)
      expect((await api.request('POST', `${base}/configmaps`, { body: cm(`c${i}`) })).status).toBe(201);
    await api.request('POST', `${base}/secrets`, {
      body: { metadata: { name: 's' }, stringData: { a: 'b' } },
    });
    await api.request('POST', `${base}/serviceaccounts`, { body: { metadata: { name: 'sa' } } });
    const w1 = await api.request('POST', `/apis/example.com/v1/namespaces/${ns}/widgets`, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } },
    });
    expect(w1.status).toBe(201);
    const g1 = await api.request('POST', `/apis/toys.example.org/v1/namespaces/${ns}/gadgets`, {
      body: { apiVersion: 'toys.example.org/v1', kind: 'Gadget', metadata: { name: 'g1' } },
    });
    expect(g1.status).toBe(201);
    // The blocker: a custom object with a finalizer its (imaginary) controller must remove.
    const held = await api.request('POST', `/apis/example.com/v1/namespaces/${ns}/widgets`, {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'held', finalizers: ['example.com/cleanup'] },
      },
    });
    expect(held.status).toBe(201);

    const nsWatch = await openWatch(api, `/api/v1/namespaces?fieldSelector=metadata.name%3D${ns}`);
    await nsWatch.until(1);
    const del = await api.request('DELETE', `/api/v1/namespaces/${ns}`, {
      body: { propagationPolicy: 'Background' },
    });
    expect(del.status).toBe(200);
    expect(json(del)).toMatchObject({
      kind: 'Namespace',
      metadata: { name: ns },
      spec: { finalizers: [finalizer] },
      status: { phase: 'Terminating' },
    });
    expect(json<{ metadata: Record<string, unknown> }>(del).metadata.deletionTimestamp).toBeTruthy();

    // New content is refused (403 with upstream's message).
    const refused = await api.request('POST', `${base}/configmaps`, { body: cm('late') });
    expect(refused.status).toBe(403);
    expect(json<{ message: string }>(refused).message).toBe(
      `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    );
    expect(json(refused)).toMatchObject({
      reason: 'Forbidden',
      details: {
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${ns} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    });

    // Everything without a finalizer goes; the held widget turns Terminating and blocks.
    await waitFor('namespace content removed but the held widget', async () => {
      const cmsLeft = json<{ items: unknown[] }>(await api.request('GET', `${base}/configmaps`)).items.length;
      const widgets = json<{ items: { metadata: { name: string; deletionTimestamp?: string } }[] }>(
        await api.request('GET', `/apis/example.com/v1/namespaces/${ns}/widgets`),
      ).items;
      const gadgetsLeft = json<{ items: unknown[] }>(
        await api.request('GET', `/apis/toys.example.org/v1/namespaces/${ns}/gadgets`),
      ).items.length;
      return (
        cmsLeft === 0 &&
        gadgetsLeft === 0 &&
        widgets.length === 1 &&
        widgets[0]?.metadata.name === 'held' &&
        Boolean(widgets[0]?.metadata.deletionTimestamp)
      );
    });
    expect((await api.request('GET', `${base}/secrets/s`)).status).toBe(404);
    expect((await api.request('GET', `${base}/serviceaccounts/sa`)).status).toBe(404);
    const stuck = await waitFor('conditions', async () => {
      const r = json<{
        status: {
          phase: string;
          conditions?: { type: string; status: string; reason: string; message: string }[];
        };
      }>(await api.request('GET', `/api/v1/namespaces/${ns}`));
      return r.status.conditions?.some(
        (c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True',
      )
        ? r
        : undefined;
    });
    expect(stuck.status.phase).toBe('Terminating');
    expect(stuck.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: 'Some resources are remaining: widgets.example.com has 1 resource instances',
        }),
        expect.objectContaining({
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message:
            'Some content in the namespace has finalizers remaining: example.com/cleanup in 1 resource instances',
        }),
      ]),
    );
    // Still there while the finalizer holds.
    await new Promise((r) => setTimeout(r, 100));
    expect((await api.request('GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);

    // The "controller" finishes its cleanup: the widget goes, then the namespace.
    const patch = await api.request('PATCH', `/apis/example.com/v1/namespaces/${ns}/widgets/held`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: null } }),
    });
    expect(patch.status).toBe(200);
    await waitFor(
      'namespace removed',
      async () => (await api.request('GET', `/api/v1/namespaces/${ns}`)).status === 404,
    );
    const types = (
      await waitFor('DELETED event', () =>
        nsWatch.events.some((e) => e.type === 'DELETED') ? nsWatch.events : undefined,
      )
    ).map((e) => e.type);
    expect(types[0]).toBe('ADDED');
    expect(types.at(-1)).toBe('DELETED');
    expect(types.slice(1, -1).every((t) => t === 'MODIFIED')).toBe(true);
    nsWatch.close();
    // The name is reusable, with an empty namespace.
    expect(
      (await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    expect(json<{ items: unknown[] }>(await api.request('GET', `${base}/configmaps`)).items).toHaveLength(0);
  });

  it('the /finalize sub-resource: emptying spec.finalizers of a terminating namespace removes it', async () => {
    const ns = 'manual';
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: cm('stay', { finalizers: ['example.com/x'] }),
    });
    await api.request('DELETE', `/api/v1/namespaces/${ns}`);
    // The namespace controller writes conditions meanwhile: read-modify-write until it sticks.
    await waitFor('finalize accepted', async () => {
      const cur = json<Record<string, unknown>>(await api.request('GET', `/api/v1/namespaces/${ns}`));
      const fin = await api.request('PUT', `/api/v1/namespaces/${ns}/finalize`, {
        body: { ...cur, spec: { finalizers: [] } },
      });
      if (fin.status === 409) return undefined;
      expect(fin.status).toBe(200);
      expect(json(fin)).toMatchObject({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
      return true;
    });
    await waitFor(
      'namespace removed',
      async () => (await api.request('GET', `/api/v1/namespaces/${ns}`)).status === 404,
    );
  });

  it("invalid DeleteOptions name the flavor's meta group", async () => {
    const r = await api.request('DELETE', '/api/v1/namespaces/fresh?propagationPolicy=Nope');
    expect(r.status).toBe(422);
    expect(json(r)).toMatchObject({
      message: `DeleteOptions.meta.${domain} "" is invalid: propagationPolicy: Unsupported value: "Nope": supported values: "Foreground", "Background", "Orphan", "nil"`,
      details: { group: `meta.${domain}`, kind: 'DeleteOptions' },
    });
  });

  it('dryRun=All on a namespace leaves it Active', async () => {
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'dry-ns' } } });
    const r = await api.request('DELETE', '/api/v1/namespaces/dry-ns?dryRun=All');
    expect(json(r)).toMatchObject({ status: { phase: 'Terminating' } });
    expect(json(await api.request('GET', '/api/v1/namespaces/dry-ns'))).toMatchObject({
      status: { phase: 'Active' },
    });
  });
});
