/**
 * Wire encodings end to end (issue 7): Table responses for get/list/watch (and kubectl printing
 * them), Protobuf requests/responses/watch frames, CBOR behind its gate, gzip, and the status
 * codes of negotiation: 406 for an unsatisfiable Accept, 415 for an unknown Content-Type, 400 for
 * a malformed binary body.
 */
import { spawn } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { CborSeqReader, decodeCbor, encodeCbor } from '@orchard/codecs/cbor';
import {
  assertProtobufPrefix,
  decodeProtobuf,
  decodeProtobufWatchEvent,
  encodeProtobuf,
  ProtobufFrameReader,
} from '@orchard/codecs/protobuf';
import { kubernetesFlavor } from '@orchard/meta';
import {
  crdFixture,
  kubectl,
  kubectlAvailable,
  kubectlBinary,
  type RawResponse,
  startTestServer,
  type TestServer,
  waitFor,
} from '@orchard/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PB = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** One request with a byte body and a byte response (the shared helper of @orchard/testing). */
function raw(
  api: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
): Promise<RawResponse> {
  return api.raw(method, path, { headers, ...(body ? { body } : {}) });
}

/**
 * POSTs 60 one-byte corruptions or truncations of `good` (fast-check) as `contentType`: each is
 * answered 400, or — when the corruption still decodes — 201, 422 or 409; `check` sees each answer.
 */
async function fuzzCorruptions(
  api: TestServer,
  good: Uint8Array,
  path: string,
  contentType: string,
  check: (r: RawResponse, cut: boolean) => void,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: good.length - 1 }),
      fc.integer({ min: 0, max: 255 }),
      fc.boolean(),
      async (at, byte, cut) => {
        const body = cut ? good.subarray(0, at) : Uint8Array.from(good, (b, i) => (i === at ? byte : b));
        const r = await raw(api, 'POST', path, { 'content-type': contentType }, body);
        // A corruption can still leave a valid (different) ConfigMap, or an invalid one (422).
        expect([400, 201, 422, 409]).toContain(r.status);
        check(r, cut);
      },
    ),
    { numRuns: 60 },
  );
}

/** Opens a watch and collects raw chunks until `done` says enough or the time budget ends. */
function watchRaw(
  api: TestServer,
  path: string,
  accept: string,
  onChunk: (c: Buffer) => boolean,
): Promise<{ status: number; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    const tls = api.tls;
    if (!tls) throw new Error('HTTPS only');
    const req = httpsRequest(
      new URL(path, api.url),
      { headers: { accept }, ca: tls.ca.cert, cert: tls.admin.cert, key: tls.admin.key },
      (res) => {
        const finish = () =>
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] });
        res.on('data', (c: Buffer) => {
          if (onChunk(c)) {
            finish();
            req.destroy();
          }
        });
        res.on('end', finish);
      },
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.setTimeout(20_000, () => {
      req.destroy();
      reject(new Error('watch timed out'));
    });
    req.end();
  });
}

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

describe('CBOR with --feature-gates=CBORServingAndStorage=true (orch flavor)', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ server: { featureGates: { CBORServingAndStorage: true } } });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('creates from a CBOR body and answers get and list in CBOR with the self-described tag', async () => {
    const body = encodeCbor({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cb' },
      data: { k: 'v' },
    });
    const created = await raw(
      api,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      { 'content-type': 'application/cbor', accept: 'application/cbor' },
      body,
    );
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/cbor');
    expect([...created.body.subarray(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
    expect(decodeCbor(created.body, { requireSelfDescribedTag: true })).toMatchObject({
      kind: 'ConfigMap',
      data: { k: 'v' },
    });
    const list = await raw(api, 'GET', '/api/v1/namespaces/default/configmaps', {
      accept: 'application/cbor',
    });
    expect((decodeCbor(list.body) as { kind: string }).kind).toBe('ConfigMapList');
  });

  it('server-side apply takes application/apply-patch+cbor; there is no other CBOR patch type (415)', async () => {
    const intent = encodeCbor({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'applied' },
      data: { k: 'v' },
    });
    const path = '/api/v1/namespaces/default/configmaps/applied?fieldManager=cbor-test';
    const r = await raw(api, 'PATCH', path, { 'content-type': 'application/apply-patch+cbor' }, intent);
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body.toString())).toMatchObject({
      data: { k: 'v' },
      metadata: { managedFields: [{ manager: 'cbor-test', operation: 'Apply' }] },
    });
    for (const ct of [
      'application/merge-patch+cbor',
      'application/json-patch+cbor',
      'application/strategic-merge-patch+cbor',
    ]) {
      expect((await raw(api, 'PATCH', path, { 'content-type': ct }, intent)).status).toBe(415);
    }
    const bad = await raw(
      api,
      'PATCH',
      path,
      { 'content-type': 'application/apply-patch+cbor' },
      Uint8Array.of(0xa1, 0x61),
    );
    expect(bad.status).toBe(400);
  });

  it('serves Tables under the orch flavor as meta.orch.io/v1, also in CBOR', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' },
    });
    expect(r.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.orch.io/v1' });
    expect(
      (await api.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { accept: TABLE } }))
        .status,
    ).toBe(406);
    const c = await raw(api, 'GET', '/api/v1/namespaces/default/configmaps', {
      accept: 'application/cbor;as=Table;v=v1;g=meta.orch.io',
    });
    expect(decodeCbor(c.body)).toMatchObject({ kind: 'Table', apiVersion: 'meta.orch.io/v1' });
  });

  it('truncated or corrupted CBOR bodies are 400 (or a valid other object), never a crash', async () => {
    const good = encodeCbor({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fz' },
      data: { k: 'v' },
    });
    await fuzzCorruptions(
      api,
      good,
      '/api/v1/namespaces/default/configmaps?dryRun=All',
      'application/cbor',
      (r, cut) => {
        if (cut) expect(r.status).toBe(400);
      },
    );
    expect((await api.request('GET', '/healthz')).status).toBe(200);
  });

  it('a malformed CBOR body is a 400', async () => {
    for (const bad of [
      Uint8Array.of(0xd9, 0xd9, 0xf7, 0xa2, 0x61),
      Uint8Array.of(0xa1, 0x61, 0x61, 0x01, 0x01),
      Uint8Array.of(0xff),
    ]) {
      const r = await raw(
        api,
        'POST',
        '/api/v1/namespaces/default/configmaps',
        { 'content-type': 'application/cbor' },
        bad,
      );
      expect(r.status).toBe(400);
    }
  });

  it('watches stream application/cbor-seq, one item per event', async () => {
    const list = await api.request('GET', '/api/v1/namespaces/default/configmaps');
    const rv = (list.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const reader = new CborSeqReader();
    const events: { type: string; object: { metadata: { name: string } } }[] = [];
    const watching = watchRaw(
      api,
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`,
      'application/cbor',
      (c) => {
        events.push(...(reader.push(c) as typeof events));
        return events.length >= 1;
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    await api.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seq' } },
    });
    const res = await watching;
    expect(res.contentType).toBe('application/cbor-seq');
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'seq' } } });
  });
});

/** Stock kubectl printing the server's Table columns. Skipped (with this reason) where /usr/bin/kubectl is absent. */
describe.skipIf(!kubectlAvailable())(
  'kubectl get prints server-side Table columns (kubernetes flavor)',
  () => {
    let api: TestServer;
    const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
    beforeAll(async () => {
      api = await startTestServer({ flavor: 'kubernetes' });
      await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cfg' },
          data: { a: '1', b: '2', c: '3' },
        },
      });
      await api.request('POST', '/api/v1/namespaces/default/pods', {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web' },
          spec: {
            containers: [
              { name: 'c', image: 'nginx' },
              { name: 'd', image: 'redis' },
            ],
            nodeName: 'node-7',
          },
        },
      });
    });
    afterAll(async () => {
      await api?.stop();
    });

    it('configmaps: NAME DATA AGE with the Data count', async () => {
      const r = await k('get', 'configmaps');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+DATA\s+AGE\n/);
      expect(r.stdout).toMatch(/\ncfg\s+3\s+\d+s\n/);
    });

    it('pods: NAME READY STATUS RESTARTS AGE, and the wide columns with -o wide', async () => {
      const r = await k('get', 'pods');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
      expect(r.stdout).toMatch(/\nweb\s+0\/2\s+\S+\s+0\s+\d+s\n/);
      const wide = await k('get', 'pods', '-o', 'wide');
      expect(wide.stdout).toMatch(
        /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\n/,
      );
      expect(wide.stdout).toMatch(/\nweb\s+0\/2\s+\S+\s+0\s+\d+s\s+<none>\s+node-7\s+<none>\s+<none>\n/);
    });

    it("-A, --show-labels and --sort-by use the rows' objects (includeObject)", async () => {
      await api.request('POST', '/api/v1/namespaces/kube-system/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'aaa', labels: { tier: 'sys' } } },
      });
      const all = await k('get', 'configmaps', '-A', '--show-labels');
      expect(all.code).toBe(0);
      expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\s+LABELS\n/);
      expect(all.stdout).toMatch(/\nkube-system\s+aaa\s+0\s+\d+s\s+tier=sys\n/);
      expect(all.stdout).toMatch(/\ndefault\s+cfg\s+3\s+\d+s\s+<none>\n/);
      const sorted = await k('get', 'configmaps', '-A', '--sort-by=.metadata.name', '-o', 'name');
      expect(sorted.code).toBe(0);
      const names = sorted.stdout.trim().split('\n');
      expect(names).toEqual([...names].sort());
      const table = await k('get', 'configmaps', '-A', '--sort-by=.metadata.name');
      expect(table.code).toBe(0);
      expect(table.stdout.indexOf('aaa')).toBeLessThan(table.stdout.indexOf('cfg'));
    });

    it('a CRD with printer columns prints them', async () => {
      const crd = crdFixture({
        group: 'example.com',
        plural: 'gadgets',
        kind: 'Gadget',
        listKind: 'GadgetList',
        spec: { color: { type: 'string' }, size: { type: 'integer' } },
        versionFields: {
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      });
      expect(
        (await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd }))
          .status,
      ).toBe(201);
      let status = 0;
      for (let i = 0; i < 100 && status !== 201; i++) {
        status = (
          await api.request('POST', '/apis/example.com/v1/namespaces/default/gadgets', {
            body: {
              apiVersion: 'example.com/v1',
              kind: 'Gadget',
              metadata: { name: 'g1' },
              spec: { color: 'red', size: 7 },
            },
          })
        ).status;
        if (status !== 201) await new Promise((r) => setTimeout(r, 50));
      }
      const r = await k('get', 'gadgets');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^NAME\s+COLOR\s+SIZE\s+AGE\n/);
      expect(r.stdout).toMatch(/\ng1\s+red\s+7\s+\d+s\n/);
    });

    it('get -w streams Table rows for later changes', async () => {
      const child = spawn(
        kubectlBinary(),
        [
          `--kubeconfig=${api.kubeconfigPath}`,
          `--cache-dir=${api.kubeconfigPath}.wcache`,
          'get',
          'configmaps',
          '-w',
        ],
        { env: { PATH: process.env.PATH ?? '/usr/bin', HOME: `${api.kubeconfigPath}.whome` } },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      try {
        for (let i = 0; i < 200 && !/\ncfg\s+3\s+/.test(out); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(/^NAME\s+DATA\s+AGE\n/);
        await api.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' }, data: { x: 'y' } },
        });
        for (let i = 0; i < 200 && !/\nlater\s+1\s+/.test(out); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(/\nlater\s+1\s+\d+s\n/);
        // Watch rows carry no header again.
        expect(out.match(/NAME\s+DATA\s+AGE/g)).toHaveLength(1);
      } finally {
        child.kill();
      }
    });
  },
);
