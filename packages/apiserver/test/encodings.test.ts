/**
 * Wire encodings end to end (issue 7): Table responses for get/list/watch, Protobuf
 * requests/responses/watch frames, gzip, and the status codes of negotiation: 406 for an
 * unsatisfiable Accept, 415 for an unknown Content-Type, 400 for a malformed binary body. CBOR is in
 * encodings-cbor.e2e.test.ts, kubectl printing Tables in encodings-kubectl.e2e.test.ts.
 */
import { gunzipSync } from 'node:zlib';
import { encodeCbor } from '@orchard/codecs/cbor';
import {
  assertProtobufPrefix,
  decodeProtobuf,
  decodeProtobufWatchEvent,
  encodeProtobuf,
  ProtobufFrameReader,
} from '@orchard/codecs/protobuf';
import { kubernetesFlavor } from '@orchard/meta';
import { crdFixture, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCorruptions, PB, raw, TABLE, watchRaw } from './helpers/encodings.js';

describe('Table, Protobuf, gzip and negotiation (kubernetes flavor, HTTPS)', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'enc' } },
    });
    for (const name of ['one', 'two'])
      await api.request('POST', '/api/v1/namespaces/enc/configmaps', {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, labels: { app: 'x' } },
          data: { a: '1', b: '2' },
        },
      });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('lists as a Table with the configmap columns and PartialObjectMetadata rows', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/enc/configmaps?limit=500', {
      headers: { accept: `${TABLE},application/json` },
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json;g=meta.k8s.io;v=v1;as=Table');
    const t = r.json as {
      kind: string;
      apiVersion: string;
      metadata: { resourceVersion: string };
      columnDefinitions: { name: string; type: string; format: string }[];
      rows: { cells: unknown[]; object: { kind: string; metadata: { name: string } } }[];
    };
    expect(t).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(t.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}`)).toEqual([
      'Name:string:name',
      'Data:integer:',
      'Age:string:',
    ]);
    expect(t.rows.map((row) => row.cells.slice(0, 2))).toEqual([
      ['one', 2],
      ['two', 2],
    ]);
    expect(t.rows[0]?.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'one', labels: { app: 'x' } },
    });
  });

  it('gets one object as a Table; includeObject=Object and None; a bad includeObject is 400', async () => {
    const one = await api.request('GET', '/api/v1/namespaces/enc/configmaps/one', {
      headers: { accept: TABLE },
    });
    expect((one.json as { rows: unknown[] }).rows).toHaveLength(1);
    const full = await api.request('GET', '/api/v1/namespaces/enc/configmaps?includeObject=Object', {
      headers: { accept: TABLE },
    });
    expect(
      (full.json as { rows: { object: { kind: string; data: unknown } }[] }).rows[0]?.object,
    ).toMatchObject({ kind: 'ConfigMap', data: { a: '1' } });
    const none = await api.request('GET', '/api/v1/namespaces/enc/configmaps?includeObject=None', {
      headers: { accept: TABLE },
    });
    expect((none.json as { rows: object[] }).rows[0]).not.toHaveProperty('object');
    const bad = await api.request('GET', '/api/v1/namespaces/enc/configmaps?includeObject=All', {
      headers: { accept: TABLE },
    });
    expect(bad.status).toBe(400);
  });

  it('types without a column set get the default table (Name, Created At)', async () => {
    const r = await api.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      headers: { accept: TABLE },
    });
    if (r.status === 404) return; // RBAC types not served by this build
    expect(
      (r.json as { columnDefinitions: { name: string }[] }).columnDefinitions.map((c) => c.name),
    ).toEqual(['Name', 'Created At']);
  });

  it('metadata-only responses: PartialObjectMetadata for get/watch, PartialObjectMetadataList for list, JSON and Protobuf', async () => {
    const pom = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
    const one = await api.request('GET', '/api/v1/namespaces/enc/configmaps/one', {
      headers: { accept: pom },
    });
    expect(one.json).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'one', labels: { app: 'x' } }),
    });
    const list = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps', {
      accept: `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json`,
    });
    expect(list.headers['content-type']).toBe(`${PB};g=meta.k8s.io;v=v1;as=PartialObjectMetadataList`);
    const decoded = decodeProtobuf(list.body, kubernetesFlavor) as {
      kind: string;
      items: { metadata: { name: string }; data?: unknown }[];
    };
    expect(decoded.kind).toBe('PartialObjectMetadataList');
    expect(decoded.items.map((i) => i.metadata.name)).toContain('one');
    expect(decoded.items[0]).not.toHaveProperty('data');
    const wrongShape = await api.request('GET', '/api/v1/namespaces/enc/configmaps', {
      headers: { accept: pom },
    });
    expect(wrongShape.status).toBe(406);
  });

  it('406 when nothing in Accept can be served; JSON when a fallback is listed', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/enc/configmaps/one', {
      headers: { accept: 'application/xml' },
    });
    expect(r.status).toBe(406);
    expect(r.json).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
    const t = await api.request('GET', '/api/v1/namespaces/enc/configmaps/one', {
      headers: { accept: 'application/json;as=Table;v=v9;g=meta.k8s.io' },
    });
    expect(t.status).toBe(406);
  });

  it('415 for an unknown Content-Type', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/enc/configmaps', {
      body: '<configmap/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.status).toBe(415);
    expect(r.json).toMatchObject({ kind: 'Status', code: 415, reason: 'UnsupportedMediaType' });
  });

  it('Protobuf: create with a Protobuf body, get and list in Protobuf with the k8s\\0 prefix', async () => {
    const body = encodeProtobuf(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb' }, data: { k: 'v' } },
      kubernetesFlavor,
    );
    const created = await raw(
      api,
      'POST',
      '/api/v1/namespaces/enc/configmaps',
      { 'content-type': PB, accept: PB },
      body,
    );
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe(PB);
    assertProtobufPrefix(created.body);
    expect(decodeProtobuf(created.body, kubernetesFlavor)).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'pb', namespace: 'enc' },
      data: { k: 'v' },
    });
    const list = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps', {
      accept: `${PB}, application/json`,
    });
    const decoded = decodeProtobuf(list.body, kubernetesFlavor) as {
      kind: string;
      items: { metadata: { name: string } }[];
    };
    expect(decoded.kind).toBe('ConfigMapList');
    expect(decoded.items.map((i) => i.metadata.name)).toContain('pb');
    const missing = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps/nope', { accept: PB });
    expect(missing.status).toBe(404);
    expect(decodeProtobuf(missing.body, kubernetesFlavor)).toMatchObject({
      kind: 'Status',
      code: 404,
      reason: 'NotFound',
    });
  });

  it('Protobuf watch: length-prefixed WatchEvent frames', async () => {
    const list = await api.request('GET', '/api/v1/namespaces/enc/configmaps');
    const rv = (list.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const reader = new ProtobufFrameReader();
    const events: { type: string; name: unknown }[] = [];
    const watching = watchRaw(
      api,
      `/api/v1/namespaces/enc/configmaps?watch=true&resourceVersion=${rv}`,
      PB,
      (c) => {
        for (const f of reader.push(c)) {
          const e = decodeProtobufWatchEvent(f, kubernetesFlavor);
          events.push({ type: e.type, name: e.object.metadata?.name });
        }
        return events.length >= 1;
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    await api.request('POST', '/api/v1/namespaces/enc/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } },
    });
    const res = await watching;
    expect(res.status).toBe(200);
    expect(res.contentType).toBe(`${PB};stream=watch`);
    expect(events[0]).toEqual({ type: 'ADDED', name: 'watched' });
  });

  it('a Protobuf request for a custom resource falls back to JSON when listed, else 406', async () => {
    const crd = crdFixture({
      group: 'example.com',
      plural: 'widgets',
      kind: 'Widget',
      listKind: 'WidgetList',
      spec: { size: { type: 'integer' } },
      versionFields: {
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
      },
    });
    expect(
      (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd }))
        .status,
    ).toBe(201);
    await waitFor(
      'the new Widget resource to serve creates',
      async () =>
        (
          await api.request('POST', '/apis/example.com/v1/namespaces/enc/widgets', {
            body: {
              apiVersion: 'example.com/v1',
              kind: 'Widget',
              metadata: { name: 'w' },
              spec: { size: 3 },
            },
          })
        ).status === 201,
    );
    const both = await raw(api, 'GET', '/apis/example.com/v1/namespaces/enc/widgets/w', {
      accept: `${PB}, application/json`,
    });
    expect(both.status).toBe(200);
    expect(both.headers['content-type']).toBe('application/json');
    const only = await raw(api, 'GET', '/apis/example.com/v1/namespaces/enc/widgets/w', { accept: PB });
    expect(only.status).toBe(406);
    const table = await api.request('GET', '/apis/example.com/v1/namespaces/enc/widgets', {
      headers: { accept: TABLE },
    });
    const t = table.json as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Size']);
    expect(t.rows[0]?.cells).toEqual(['w', 3]);
  });

  it('CustomResourceDefinitions themselves speak Protobuf (create and get)', async () => {
    const crd = crdFixture({
      group: 'example.org',
      plural: 'things',
      kind: 'Thing',
      listKind: 'ThingList',
      scope: 'Cluster',
      schema: {
        type: 'object',
        properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    });
    const created = await raw(
      api,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      { 'content-type': PB, accept: PB },
      encodeProtobuf(crd, kubernetesFlavor),
    );
    expect(created.status).toBe(201);
    const back = decodeProtobuf(created.body, kubernetesFlavor) as {
      spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: unknown } } } }[] };
    };
    expect(back.spec.versions[0]?.schema.openAPIV3Schema.properties.spec).toEqual({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    const json = await api.request(
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.example.org',
    );
    expect(json.json).toMatchObject({ spec: { names: { kind: 'Thing' } } });
  });

  it('a truncated or corrupted Protobuf body is a 400, never a crash', async () => {
    const good = encodeProtobuf(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fz' }, data: { k: 'v' } },
      kubernetesFlavor,
    );
    await fuzzCorruptions(api, good, '/api/v1/namespaces/enc/configmaps?dryRun=All', PB, (r) => {
      if (r.status === 400)
        expect(JSON.parse(r.body.toString())).toMatchObject({ kind: 'Status', code: 400 });
    });
    const cut = await raw(
      api,
      'POST',
      '/api/v1/namespaces/enc/configmaps',
      { 'content-type': PB },
      good.subarray(0, good.length - 8),
    );
    expect(cut.status).toBe(400);
    expect((await api.request('GET', '/healthz')).status).toBe(200);
  });

  it('gzip: large lists are compressed when the client accepts gzip, small ones are not', async () => {
    for (let i = 0; i < 40; i++)
      await api.request('POST', '/api/v1/namespaces/enc/configmaps', {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `big-${i}` },
          data: { blob: 'x'.repeat(4000) },
        },
      });
    const big = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps', { 'accept-encoding': 'gzip' });
    expect(big.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(big.body).toString()) as { items: unknown[] };
    expect(list.items.length).toBeGreaterThanOrEqual(40);
    const plain = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const small = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps/one', {
      'accept-encoding': 'gzip',
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps', {
      'accept-encoding': 'gzip;q=0',
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('CBOR is off by default: 415 for a CBOR body or CBOR apply, 406 for a CBOR-only Accept', async () => {
    const body = encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cb' } });
    const apply = await raw(
      api,
      'PATCH',
      '/api/v1/namespaces/enc/configmaps/cb?fieldManager=m',
      { 'content-type': 'application/apply-patch+cbor' },
      body,
    );
    expect(apply.status).toBe(415);
    expect(
      (
        await raw(
          api,
          'POST',
          '/api/v1/namespaces/enc/configmaps',
          { 'content-type': 'application/cbor' },
          body,
        )
      ).status,
    ).toBe(415);
    expect(
      (await raw(api, 'GET', '/api/v1/namespaces/enc/configmaps', { accept: 'application/cbor' })).status,
    ).toBe(406);
  });
});

describe('gzip off with --feature-gates=APIResponseCompression=false', () => {
  it('sends large lists uncompressed', async () => {
    const api = await startTestServer({
      flavor: 'kubernetes',
      server: { featureGates: { APIResponseCompression: false } },
    });
    try {
      for (let i = 0; i < 40; i++)
        await api.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `big-${i}` },
            data: { blob: 'x'.repeat(4000) },
          },
        });
      const r = await raw(api, 'GET', '/api/v1/namespaces/default/configmaps', { 'accept-encoding': 'gzip' });
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.body.length).toBeGreaterThan(128 * 1024);
    } finally {
      await api.stop();
    }
  });
});
