import { crdFixture, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './lifecycle-helpers.js';

/**
 * Deleting a CRD (upstream apiextensions): the CRD gets the `customresourcecleanup.apiextensions.<domain>`
 * finalizer and a `Terminating` condition; its instances are deleted through the normal deletion
 * lifecycle, so an instance with a finalizer keeps the CRD Terminating (and its resource served,
 * creates refused) until the finalizer is removed; then both are gone and the resource leaves discovery.
 */

/** Polls `check` until it holds, or fails naming `what`. */
const until = (check: () => Promise<boolean>, what: string) => waitFor(what, check);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}
interface Crd {
  metadata: { deletionTimestamp?: string; finalizers?: string[] };
  status: { conditions: Condition[] };
}

describe.each(['kubernetes', 'orch'] as const)('CRD deletion (%s flavor)', (flavor) => {
  let api: TestServer;
  const domain = flavor === 'kubernetes' ? 'k8s.io' : 'orch.io';
  const apiGroup = `apiextensions.${domain}`;
  const crds = `/apis/${apiGroup}/v1/customresourcedefinitions`;
  const gizmos = '/apis/example.com/v1/namespaces/default/gizmos';
  const crd = crdFixture({
    flavor,
    group: 'example.com',
    plural: 'gizmos',
    kind: 'Gizmo',
    spec: { n: { type: 'integer' } },
  });
  const gizmo = (name: string, finalizers?: string[]) => ({
    apiVersion: 'example.com/v1',
    kind: 'Gizmo',
    metadata: { name, ...(finalizers ? { finalizers } : {}) },
    spec: { n: 1 },
  });
  const inDiscovery = async () => {
    const r = await api.request('GET', '/apis/example.com/v1');
    return r.status === 200 && JSON.stringify(r.json).includes('"gizmos"');
  };

  beforeAll(async () => {
    api = await startTestServer({ flavor });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('a finalizer on an instance keeps the CRD Terminating until it is removed', async () => {
    expect((await api.request('POST', crds, { body: crd })).status).toBe(201);
    await until(async () => (await api.request('GET', gizmos)).status === 200, 'gizmos served');
    expect((await api.request('POST', gizmos, { body: gizmo('held', ['example.com/hold']) })).status).toBe(
      201,
    );
    expect((await api.request('POST', gizmos, { body: gizmo('free') })).status).toBe(201);

    const del = await api.request('DELETE', `${crds}/gizmos.example.com`);
    expect(del.status).toBe(200);
    const marked = del.json as Crd;
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.finalizers).toContain(`customresourcecleanup.apiextensions.${domain}`);
    expect(marked.status.conditions).toContainEqual(
      expect.objectContaining({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending' }),
    );

    // The instance without finalizers goes; the held one is Terminating and holds the CRD.
    await until(async () => (await api.request('GET', `${gizmos}/free`)).status === 404, 'free deleted');
    await until(async () => {
      const c = (await api.request('GET', `${crds}/gizmos.example.com`)).json as Crd;
      return c.status.conditions.some(
        (x) => x.type === 'Terminating' && x.reason === 'InstanceDeletionCheck',
      );
    }, 'CRD reports remaining instances');
    const held = await api.request('GET', `${gizmos}/held`);
    expect(held.status).toBe(200);
    expect((held.json as Crd).metadata.deletionTimestamp).toBeDefined();
    await sleep(300);
    const still = await api.request('GET', `${crds}/gizmos.example.com`);
    expect(still.status).toBe(200);
    expect((still.json as Crd).metadata.finalizers).toContain(
      `customresourcecleanup.apiextensions.${domain}`,
    );
    expect(await inDiscovery()).toBe(true);

    // No new instances while terminating (upstream: 405).
    const create = await api.request('POST', gizmos, { body: gizmo('late') });
    expect(create.status).toBe(405);
    expect((create.json as { message: string }).message).toBe(
      'create not allowed while custom resource definition is terminating',
    );

    // Releasing the finalizer lets the instance, then the CRD, go.
    const patch = await api.request('PATCH', `${gizmos}/held`, {
      body: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patch.status).toBe(200);
    await until(async () => (await api.request('GET', `${gizmos}/held`)).status === 404, 'held gone');
    await until(
      async () => (await api.request('GET', `${crds}/gizmos.example.com`)).status === 404,
      'CRD removed',
    );
    await until(async () => !(await inDiscovery()), 'gizmos leave discovery');
    expect((await api.request('GET', gizmos)).status).toBe(404);
  });

  it('a CRD without instances is removed at once; recreated, its resource starts empty', async () => {
    expect((await api.request('POST', crds, { body: crd })).status).toBe(201);
    await until(async () => (await api.request('GET', gizmos)).status === 200, 'gizmos served');
    expect(((await api.request('GET', gizmos)).json as { items: unknown[] }).items).toEqual([]);
    expect((await api.request('DELETE', `${crds}/gizmos.example.com`)).status).toBe(200);
    await until(
      async () => (await api.request('GET', `${crds}/gizmos.example.com`)).status === 404,
      'CRD removed',
    );
    await until(async () => !(await inDiscovery()), 'gizmos leave discovery');
  });
});
