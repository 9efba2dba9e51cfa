import { createMemoryStore } from '@orchard/store';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cm, gadgets, json, openWatch, waitFor } from './lifecycle-helpers.js';

/**
 * Garbage collection by `metadata.ownerReferences` with a three-level owner chain across built-in
 * and custom types: ConfigMap A ← Gadget B (custom type) ← Secret C, each reference with
 * `blockOwnerDeletion: true` and `controller: true`, under the three propagation policies; plus
 * dangling references and objects with several owners.
 */
describe('garbage collector', () => {
  let api: TestServer;
  const ns = 'default';
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const secrets = `/api/v1/namespaces/${ns}/secrets`;
  const gadgetsPath = `/apis/toys.example.org/v1/namespaces/${ns}/gadgets`;

  beforeAll(async () => {
    api = await startTestServer({ insecureHttp: true, server: { resources: [gadgets] } });
  });
  afterAll(async () => {
    await api.stop();
  });

  type Meta = { uid: string; name: string; resourceVersion: string };
  const ref = (apiVersion: string, kind: string, m: Meta, block = true) => ({
    apiVersion,
    kind,
    name: m.name,
    uid: m.uid,
    controller: true,
    blockOwnerDeletion: block,
  });

  async function chain(prefix: string): Promise<{ a: Meta; b: Meta; c: Meta }> {
    const a = json<{ metadata: Meta }>(await api.request('POST', cms, { body: cm(`${prefix}-a`) })).metadata;
    const rb = await api.request('POST', gadgetsPath, {
      body: {
        apiVersion: 'toys.example.org/v1',
        kind: 'Gadget',
        metadata: { name: `${prefix}-b`, ownerReferences: [ref('v1', 'ConfigMap', a)] },
      },
    });
    expect(rb.status).toBe(201);
    const b = json<{ metadata: Meta }>(rb).metadata;
    const rc = await api.request('POST', secrets, {
      body: { metadata: { name: `${prefix}-c`, ownerReferences: [ref('toys.example.org/v1', 'Gadget', b)] } },
    });
    expect(rc.status).toBe(201);
    return { a, b, c: json<{ metadata: Meta }>(rc).metadata };
  }

  const exists = async (path: string) => (await api.request('GET', path)).status === 200;

  it('Background: the owner goes at once, then its dependents, level by level', async () => {
    const { a } = await chain('bg');
    const r = await api.request('DELETE', `${cms}/bg-a`, { body: { propagationPolicy: 'Background' } });
    expect(r.status).toBe(200);
    expect(json(r)).toMatchObject({ kind: 'Status', details: { uid: a.uid } });
    expect(await exists(`${cms}/bg-a`)).toBe(false);
    await waitFor(
      'B and C collected',
      async () => !(await exists(`${gadgetsPath}/bg-b`)) && !(await exists(`${secrets}/bg-c`)),
    );
  });

  it('Foreground: the owner stays with foregroundDeletion until its blocking dependents are gone (C, then B, then A)', async () => {
    await chain('fg');
    const wa = await openWatch(api, `${cms}?fieldSelector=metadata.name%3Dfg-a`);
    const wb = await openWatch(api, `${gadgetsPath}?fieldSelector=metadata.name%3Dfg-b`);
    const wc = await openWatch(api, `${secrets}?fieldSelector=metadata.name%3Dfg-c`);
    await Promise.all([wa.until(1), wb.until(1), wc.until(1)]);
    const r = await api.request('DELETE', `${cms}/fg-a`, { body: { propagationPolicy: 'Foreground' } });
    expect(r.status).toBe(200);
    const owner = json<{ metadata: { finalizers: string[]; deletionTimestamp: string } }>(r);
    expect(owner.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(owner.metadata.deletionTimestamp).toBeTruthy();
    await waitFor('A collected', async () => !(await exists(`${cms}/fg-a`)));
    expect(await exists(`${gadgetsPath}/fg-b`)).toBe(false);
    expect(await exists(`${secrets}/fg-c`)).toBe(false);
    const deletedAt = (w: typeof wa) =>
      Number(w.events.find((e) => e.type === 'DELETED')?.object.metadata.resourceVersion ?? Number.NaN);
    await Promise.all(
      [wa, wb, wc].map((w) => waitFor('DELETED', () => w.events.some((e) => e.type === 'DELETED'))),
    );
    expect(deletedAt(wc)).toBeLessThan(deletedAt(wb));
    expect(deletedAt(wb)).toBeLessThan(deletedAt(wa));
    // B went through foreground deletion itself (it has a dependent): Terminating with the finalizer first.
    expect(
      wb.events.some(
        (e) => e.type === 'MODIFIED' && e.object.metadata.finalizers?.includes('foregroundDeletion'),
      ),
    ).toBe(true);
    for (const w of [wa, wb, wc]) w.close();
  });

  it('Foreground waits for a blocking dependent held by a finalizer', async () => {
    const a = json<{ metadata: Meta }>(await api.request('POST', cms, { body: cm('fw-a') })).metadata;
    await api.request('POST', cms, {
      body: cm('fw-b', { finalizers: ['example.com/slow'], ownerReferences: [ref('v1', 'ConfigMap', a)] }),
    });
    await api.request('DELETE', `${cms}/fw-a`, { body: { propagationPolicy: 'Foreground' } });
    await waitFor('B terminating', async () =>
      Boolean(
        json<{ metadata: { deletionTimestamp?: string } }>(await api.request('GET', `${cms}/fw-b`)).metadata
          .deletionTimestamp,
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(await exists(`${cms}/fw-a`)).toBe(true);
    await api.request('PATCH', `${cms}/fw-b`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: null } }),
    });
    await waitFor('A collected', async () => !(await exists(`${cms}/fw-a`)));
  });

  it('Orphan: the owner goes after its reference is removed from the dependents; the rest of the chain stays', async () => {
    const { b } = await chain('or');
    const r = await api.request('DELETE', `${cms}/or-a`, { body: { propagationPolicy: 'Orphan' } });
    expect(r.status).toBe(200);
    expect(json<{ metadata: { finalizers: string[] } }>(r).metadata.finalizers).toEqual(['orphan']);
    await waitFor('A removed', async () => !(await exists(`${cms}/or-a`)));
    const gb = json<{ metadata: { ownerReferences?: unknown[] } }>(
      await api.request('GET', `${gadgetsPath}/or-b`),
    );
    expect(gb.metadata.ownerReferences).toBeUndefined();
    const sc = json<{ metadata: { ownerReferences?: { uid: string }[] } }>(
      await api.request('GET', `${secrets}/or-c`),
    );
    expect(sc.metadata.ownerReferences?.[0]?.uid).toBe(b.uid);
    // Stable: nothing collects them later.
    await new Promise((r) => setTimeout(r, 100));
    expect(await exists(`${gadgetsPath}/or-b`)).toBe(true);
    expect(await exists(`${secrets}/or-c`)).toBe(true);
  });

  it('orphanDependents=true (deprecated form) orphans too', async () => {
    const a = json<{ metadata: Meta }>(await api.request('POST', cms, { body: cm('od-a') })).metadata;
    await api.request('POST', cms, { body: cm('od-b', { ownerReferences: [ref('v1', 'ConfigMap', a)] }) });
    await api.request('DELETE', `${cms}/od-a`, { body: { orphanDependents: true } });
    await waitFor('A removed', async () => !(await exists(`${cms}/od-a`)));
    expect(await exists(`${cms}/od-b`)).toBe(true);
  });

  it('dangling references: a dependent whose only owner does not exist is deleted', async () => {
    const r = await api.request('POST', cms, {
      body: cm('dangling', {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' },
        ],
      }),
    });
    expect(r.status).toBe(201);
    await waitFor('dangling collected', async () => !(await exists(`${cms}/dangling`)));
    // Same name, another uid: still dangling.
    await api.request('POST', cms, { body: cm('owner-x') });
    await api.request('POST', cms, {
      body: cm('dangling2', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-x', uid: 'not-the-uid' }],
      }),
    });
    await waitFor('dangling2 collected', async () => !(await exists(`${cms}/dangling2`)));
    expect(await exists(`${cms}/owner-x`)).toBe(true);
  });

  it('several owners: the dependent stays while one is alive and loses the reference to the gone one', async () => {
    const o1 = json<{ metadata: Meta }>(await api.request('POST', cms, { body: cm('m-o1') })).metadata;
    const o2 = json<{ metadata: Meta }>(await api.request('POST', cms, { body: cm('m-o2') })).metadata;
    await api.request('POST', cms, {
      body: cm('m-dep', {
        ownerReferences: [ref('v1', 'ConfigMap', o1, false), ref('v1', 'ConfigMap', o2, false)],
      }),
    });
    await api.request('DELETE', `${cms}/m-o1`);
    await waitFor('reference to o1 removed', async () => {
      const d = json<{ metadata: { ownerReferences?: { uid: string }[] } }>(
        await api.request('GET', `${cms}/m-dep`),
      );
      return d.metadata.ownerReferences?.length === 1 && d.metadata.ownerReferences[0]?.uid === o2.uid;
    });
    await api.request('DELETE', `${cms}/m-o2`);
    await waitFor('dependent collected', async () => !(await exists(`${cms}/m-dep`)));
  });

  it('a cluster-scoped owner (Namespace) of namespaced dependents', async () => {
    const owner = json<{ metadata: Meta }>(
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'owner-ns' } } }),
    ).metadata;
    await api.request('POST', cms, {
      body: cm('ns-dep', { ownerReferences: [ref('v1', 'Namespace', owner)] }),
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(await exists(`${cms}/ns-dep`)).toBe(true);
    await api.request('DELETE', '/api/v1/namespaces/owner-ns');
    await waitFor('dependent collected', async () => !(await exists(`${cms}/ns-dep`)));
  });

  it('a server starting on a store left mid-lifecycle finishes the work (relist + resync)', async () => {
    const store = createMemoryStore();
    const quiet = { info: () => {}, error: () => {} };
    const first = await startTestServer({
      insecureHttp: true,
      server: { store, lifecycleControllers: false, logger: quiet },
    });
    const base = '/api/v1/namespaces/default/configmaps';
    const owner = json<{ metadata: Meta }>(
      await first.request('POST', base, { body: cm('r-owner') }),
    ).metadata;
    await first.request('POST', base, {
      body: cm('r-dep', { ownerReferences: [ref('v1', 'ConfigMap', owner)] }),
    });
    await first.request('DELETE', `${base}/r-owner`);
    await first.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'left' } } });
    await first.request('POST', '/api/v1/namespaces/left/configmaps', { body: cm('x') });
    await first.request('DELETE', '/api/v1/namespaces/left');
    // Without controllers nothing moves.
    expect((await first.request('GET', `${base}/r-dep`)).status).toBe(200);
    expect((await first.request('GET', '/api/v1/namespaces/left')).status).toBe(200);
    await first.stop();

    const second = await startTestServer({ insecureHttp: true, server: { store, logger: quiet } });
    try {
      await waitFor(
        'dangling dependent collected',
        async () => (await second.request('GET', `${base}/r-dep`)).status === 404,
      );
      await waitFor(
        'namespace finished',
        async () => (await second.request('GET', '/api/v1/namespaces/left')).status === 404,
      );
    } finally {
      await second.stop();
      await store.close();
    }
  });
});
