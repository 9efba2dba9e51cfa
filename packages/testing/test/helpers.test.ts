import { isClientError } from '@orchard/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crdCollectionPath,
  crdFixture,
  installCrd,
  openWatch,
  startTestServer,
  type TestServer,
} from '../src/index.js';

describe.each([
  ['orch over HTTP', { flavor: 'orch', insecureHttp: true }],
  ['kubernetes over HTTPS', { flavor: 'kubernetes' }],
] as const)('test helpers (%s)', (_name, options) => {
  let api: TestServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  beforeAll(async () => {
    api = await startTestServer(options);
  });
  afterAll(async () => {
    await api.stop();
  });

  it('raw() sends the path as written and answers bytes', async () => {
    const created = await api.raw('POST', cms, {
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ metadata: { name: 'raw' }, data: { k: 'v' } })),
    });
    expect(created.status).toBe(201);
    expect(created.body).toBeInstanceOf(Buffer);
    expect(JSON.parse(created.body.toString('utf8')).data).toEqual({ k: 'v' });
    // `..` reaches the server (request() would resolve it to the collection)
    const dotted = await api.raw('GET', `${cms}/raw/..`);
    const resolved = await api.request('GET', `${cms}/raw/..`);
    expect(resolved.status).toBe(200);
    expect((resolved.json as { kind?: string }).kind).toBe('ConfigMapList');
    expect(dotted.status).not.toBe(200);
  });

  it('openWatch() collects events in order and waits for a count or a match', async () => {
    const w = await openWatch(api, `${cms}?labelSelector=watch%3Dme`);
    try {
      expect(w.status).toBe(200);
      for (const name of ['w1', 'w2'])
        await api.request('POST', cms, { body: { metadata: { name, labels: { watch: 'me' } } } });
      const first = await w.until(2);
      expect(first.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w1', 'ADDED w2']);
      await api.request('DELETE', `${cms}/w1`);
      const deleted = await w.untilEvent((e) => e.type === 'DELETED');
      expect(deleted.object.metadata.name).toBe('w1');
      await expect(w.until(10, 50)).rejects.toThrow(/timed out waiting for 10 watch events/);
    } finally {
      w.close();
    }
    await w.ended;
    expect(w.complete).toBe(false);
  });

  it('openWatch() sees the server end a watch, and rejects with the Status before a stream', async () => {
    const w = await openWatch(api, cms, { timeoutSeconds: '0', resourceVersion: '0' });
    await w.ended;
    expect(w.complete).toBe(true);
    const err = await openWatch(api.client, cms, { sendInitialEvents: 'true' }).catch((e: unknown) => e);
    expect(isClientError(err) && err.status).toBe(400);
  });

  it('crdFixture() builds a CRD the server serves', async () => {
    const crd = crdFixture({
      flavor: options.flavor,
      group: 'fixture.example.com',
      plural: 'gizmos',
      kind: 'Gizmo',
      shortNames: ['gz'],
      versions: ['v1', 'v2'],
      storageVersion: 'v2',
      spec: { n: { type: 'integer' } },
      versionFields: { subresources: { status: {} } },
    });
    expect(crd.metadata.name).toBe('gizmos.fixture.example.com');
    expect(crd.spec.names).toEqual({
      plural: 'gizmos',
      singular: 'gizmo',
      kind: 'Gizmo',
      shortNames: ['gz'],
    });
    expect(crd.spec.versions.map((v) => [v.name, v.storage])).toEqual([
      ['v1', false],
      ['v2', true],
    ]);
    expect(crdCollectionPath(options.flavor)).toBe(
      `/apis/${crd.apiVersion.split('/')[0]}/v1/customresourcedefinitions`,
    );
    await installCrd(api, crd);
    const gizmos = '/apis/fixture.example.com/v2/namespaces/default/gizmos';
    const r = await api.request('POST', gizmos, {
      body: {
        apiVersion: 'fixture.example.com/v2',
        kind: 'Gizmo',
        metadata: { name: 'g' },
        spec: { n: 'x' },
      },
    });
    expect(r.status).toBe(422); // the fixture's schema is enforced
    await expect(installCrd(api, crd)).rejects.toThrow(/HTTP 409/);
  });
});
