import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every namespace holds the root-CA ConfigMap (issue 19 item 8), as upstream's root-CA publisher
 * keeps it: created with the namespace, put back when deleted or edited; and its `default`
 * ServiceAccount, as upstream's service-account controller creates it.
 */
describe.each(['kubernetes', 'orch'] as const)(
  'a bare API server (the test default, %s flavor)',
  (flavor) => {
    it('publishes no root-CA ConfigMap', async () => {
      const api = await startTestServer({ flavor });
      const name = flavor === 'kubernetes' ? 'kube-root-ca.crt' : 'orch-root-ca.crt';
      try {
        await new Promise((r) => setTimeout(r, 200));
        expect((await api.request('GET', `/api/v1/namespaces/default/configmaps/${name}`)).status).toBe(404);
      } finally {
        await api.stop();
      }
    });
  },
);

describe.each(['kubernetes', 'orch'] as const)('root-CA ConfigMap (%s flavor)', (flavor) => {
  let api: TestServer;
  const name = flavor === 'kubernetes' ? 'kube-root-ca.crt' : 'orch-root-ca.crt';
  const cm = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const read = async (ns: string) => {
    const r = await api.request('GET', cm(ns));
    return r.status === 200
      ? (r.json as { data: Record<string, string>; metadata: { uid: string } })
      : undefined;
  };

  beforeAll(async () => {
    api = await startTestServer({ flavor, publishRootCa: true });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('is in the default namespaces and in a new one, holding the CA that verifies the server', async () => {
    for (const ns of ['default', flavor === 'kubernetes' ? 'kube-system' : 'orch-system']) {
      const found = await waitFor(`${name} in ${ns}`, () => read(ns));
      expect(found.data['ca.crt']).toContain('-----BEGIN CERTIFICATE-----');
    }
    const created = await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } },
    });
    expect(created.status).toBe(201);
    const published = await waitFor(`${name} in fresh`, () => read('fresh'));
    const annotations = (published as unknown as { metadata: { annotations: Record<string, string> } })
      .metadata.annotations;
    expect(Object.keys(annotations)).toEqual([
      flavor === 'kubernetes' ? 'kubernetes.io/description' : 'orch.io/description',
    ]);
  });

  it('every namespace, also a new one, gets its default ServiceAccount beside it (namespace bootstrap)', async () => {
    const sa = async (ns: string) =>
      (await api.request('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 ||
      undefined;
    for (const ns of ['default', flavor === 'kubernetes' ? 'kube-system' : 'orch-system'])
      await waitFor(`default ServiceAccount in ${ns}`, () => sa(ns));
    const created = await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'boot' } },
    });
    expect(created.status).toBe(201);
    await waitFor('default ServiceAccount in boot', () => sa('boot'));
    await waitFor(`${name} in boot`, () => read('boot'));
  });

  it('is put back when deleted, and its data restored when edited', async () => {
    const before = await waitFor(name, () => read('default'));
    expect((await api.request('DELETE', cm('default'))).status).toBe(200);
    const again = await waitFor(`${name} recreated`, async () => {
      const now = await read('default');
      return now && now.metadata.uid !== before.metadata.uid ? now : undefined;
    });
    expect(again.data).toEqual(before.data);
    const patched = await api.request('PATCH', cm('default'), {
      body: { data: { 'ca.crt': 'tampered', extra: 'x' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    await waitFor(`${name} restored`, async () => {
      const now = await read('default');
      return now && now.data['ca.crt'] === before.data['ca.crt'] && now.data.extra === undefined
        ? now
        : undefined;
    });
  });
});
