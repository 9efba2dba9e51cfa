import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flavorByName } from '@orchard/meta';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTestServer,
  crdFixture,
  orchardGlobalSetup,
  type SharedTestServer,
  startTestServer,
  type TestServer,
} from '../src/index.js';

// Issue 20 item 3: per-test namespaces, reset(), YAML fixtures, the global setup and a fake clock,
// under both flavors.
describe.each(['orch', 'kubernetes'] as const)('@orchard/testing under %s', (flavorName) => {
  const flavor = flavorByName(flavorName);
  let api: TestServer;
  let dir: string;
  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
    dir = await mkdtemp(join(tmpdir(), 'orchard-fixtures-'));
  });
  afterAll(async () => {
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('namespace() creates a fresh namespace per call', async () => {
    const [a, b] = await Promise.all([api.namespace(), api.namespace('My Suite')]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^test-\d+-[a-z0-9]+$/);
    expect(b).toMatch(/^my-suite-\d+-[a-z0-9]+$/);
    for (const ns of [a, b]) expect((await api.request('GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);
  });

  it('reset() returns to the just-started state: new objects gone, changed and deleted ones back', async () => {
    await api.reset(); // the namespaces of the test before go too
    const before = await api.request('GET', '/api/v1/namespaces');
    expect(before.json).toMatchObject({ items: expect.any(Array) });
    const ns = await api.namespace();
    await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'c' } } });
    const sysNs = flavor.systemNamespace;
    await api.request('PATCH', `/api/v1/namespaces/${sysNs}`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { labels: { touched: 'yes' } } },
    });
    const defaultRole = `/apis/${flavor.group('rbac.authorization')}/v1/clusterroles/cluster-admin`;
    const role = (await api.request('GET', defaultRole)).json as { metadata: { uid: string } };
    expect((await api.request('DELETE', defaultRole)).status).toBe(200);

    await api.reset();

    expect((await api.request('GET', `/api/v1/namespaces/${ns}`)).status).toBe(404);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/c`)).status).toBe(404);
    const sys = (await api.request('GET', `/api/v1/namespaces/${sysNs}`)).json as {
      metadata: { labels?: Record<string, string> };
    };
    expect(sys.metadata.labels?.touched).toBeUndefined();
    const back = await api.request('GET', defaultRole);
    expect(back.status).toBe(200);
    expect((back.json as { metadata: { uid: string } }).metadata.uid).toBe(role.metadata.uid);
    const names = (r: typeof before) =>
      (r.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
    expect(names(await api.request('GET', '/api/v1/namespaces'))).toEqual(names(before));
  });

  it('reset() removes a CRD and stops serving its resource', async () => {
    const crd = crdFixture({
      group: 'reset.example.com',
      plural: 'gadgets',
      kind: 'Gadget',
      flavor: flavorName,
    });
    await api.loadFixtures(await fixtureFile(dir, 'crd.yaml', [crd]));
    const path = '/apis/reset.example.com/v1/namespaces/default/gadgets';
    expect((await api.request('GET', path)).status).toBe(200);
    await api.reset();
    let status = 0;
    for (let i = 0; i < 200 && status !== 404; i++) {
      status = (await api.request('GET', path)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(404);
  });

  it('loadFixtures() applies every document of a YAML stream, a CRD before its objects, idempotently', async () => {
    const ns = await api.namespace();
    const crd = crdFixture({
      group: 'fixtures.example.com',
      plural: 'widgets',
      kind: 'Widget',
      flavor: flavorName,
    });
    const file = join(dir, 'fixtures.yaml');
    await writeFile(
      file,
      [
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  a: b`,
        `# an empty document is skipped`,
        JSON.stringify(crd),
        `apiVersion: fixtures.example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3`,
        `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: two}}\n- {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: ${ns}}}`,
      ].join('\n---\n'),
    );
    const applied = await api.loadFixtures(file, { namespace: ns });
    expect(applied).toHaveLength(5);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/configmaps/one`)).json).toMatchObject({
      data: { a: 'b' },
    });
    expect(
      (await api.request('GET', `/apis/fixtures.example.com/v1/namespaces/${ns}/widgets/w`)).status,
    ).toBe(200);
    expect((await api.request('GET', `/api/v1/namespaces/${ns}/secrets/s`)).status).toBe(200);
    await expect(api.loadFixtures(file, { namespace: ns })).resolves.toHaveLength(5);
  });

  it('loadFixtures() fails naming the file and document', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\napiVersion: v1\nkind: Nope\nmetadata: {name: x}\n',
    );
    await expect(api.loadFixtures(bad, { timeoutMs: 50 })).rejects.toThrow(
      `${bad} document 2: the server does not serve kind Nope in v1`,
    );
    const invalid = join(dir, 'invalid.yaml');
    await writeFile(invalid, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n');
    await expect(api.loadFixtures(invalid)).rejects.toThrow(`${invalid} document 1: ConfigMap Bad_Name:`);
    const dup = join(dir, 'dup.yaml');
    await writeFile(dup, 'apiVersion: v1\napiVersion: v2\n');
    await expect(api.loadFixtures(dup)).rejects.toThrow(`${dup} document 1:`);
    const proto = join(dir, 'proto.yaml');
    await writeFile(
      proto,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\ndata: {__proto__: {x: y}}\n',
    );
    await expect(api.loadFixtures(proto)).rejects.toThrow(`${proto} document 1: ConfigMap p:`);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('orchardGlobalSetup() provides a server that connectTestServer() reaches', async () => {
    let provided: SharedTestServer | undefined;
    const teardown = await orchardGlobalSetup({ flavor: flavorName })({
      provide: (_key, value) => {
        provided = value;
      },
    });
    try {
      const shared = connectTestServer(provided);
      expect(shared.flavor).toBe(flavorName);
      const ns = await shared.namespace();
      const cm = await shared.client.json<{ metadata: { namespace: string } }>({
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/configmaps`,
        body: { metadata: { name: 'c' } },
      });
      expect(cm.metadata.namespace).toBe(ns);
    } finally {
      await teardown();
    }
    expect(() => connectTestServer(undefined)).toThrow(/orchardGlobalSetup/);
  });
});

async function fixtureFile(dir: string, name: string, objects: unknown[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, objects.map((o) => JSON.stringify(o)).join('\n---\n'));
  return file;
}
