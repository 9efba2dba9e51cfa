import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCustomResourceConverter } from '../src/crd/conversion.js';
import { widgetCrd } from './helpers/widget-crd.js';

/**
 * CustomResourceDefinitions end to end: registration within a second, every verb on the custom
 * resource, schema defaulting/pruning/validation, the status sub-resource, several versions with
 * None conversion and a plugged converter, deletion, rejection of non-structural schemas, OpenAPI
 * publishing. kubectl with CRDs is in crd-kubectl.e2e.test.ts.
 */

/** Waits for a condition the server reaches asynchronously (bounded: 1000 ms). */
const until = (check: () => Promise<boolean>, what: string) => waitFor(what, check, 1000);

describe.each(['kubernetes', 'orch'] as const)('CustomResourceDefinitions (%s flavor)', (flavor) => {
  let api: TestServer;
  const ext = flavor === 'kubernetes' ? 'x-kubernetes-' : 'x-orch-';
  const apiGroup = flavor === 'kubernetes' ? 'apiextensions.k8s.io' : 'apiextensions.orch.io';
  const crds = `/apis/${apiGroup}/v1/customresourcedefinitions`;
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';
  const widget = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name },
    spec,
    ...extra,
  });

  beforeAll(async () => {
    api = await startTestServer({ flavor });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('creating a CRD serves its resource (discovery and every verb) within a second', async () => {
    const r = await api.request('POST', crds, { body: widgetCrd(ext, apiGroup) });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      status: {
        acceptedNames: { kind: 'Widget', plural: 'widgets' },
        storedVersions: ['v1'],
        conditions: expect.arrayContaining([
          expect.objectContaining({ type: 'Established', status: 'True' }),
        ]),
      },
    });
    await until(async () => (await api.request('GET', widgets)).status === 200, 'widgets listable');
    const groups = (await api.request('GET', '/apis')).json as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).toContain('example.com');
    const resources = (await api.request('GET', '/apis/example.com/v1')).json as {
      resources: { name: string; namespaced: boolean; shortNames?: string[] }[];
    };
    expect(resources.resources).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'widgets', namespaced: true })]),
    );
  });

  it('create: defaults applied, unknown fields pruned (and warned), preserve-unknown-fields kept, status ignored', async () => {
    const r = await api.request('POST', widgets, {
      body: widget(
        'w1',
        { color: 'red', bogus: 1, extra: { any: { thing: 1 } }, port: 'http' },
        { status: { ready: true } },
      ),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      spec: { color: 'red', size: 3, extra: { any: { thing: 1 } }, port: 'http' },
    });
    expect((r.json as { spec: object }).spec).not.toHaveProperty('bogus');
    expect(r.json).not.toHaveProperty('status');
    expect(r.headers.warning).toContain('unknown field \\"spec.bogus\\"');
  });

  it('get, list, update, merge and JSON patch, delete', async () => {
    expect((await api.request('GET', `${widgets}/w1`)).status).toBe(200);
    const list = (await api.request('GET', widgets)).json as { kind: string; items: unknown[] };
    expect(list.kind).toBe('WidgetList');
    expect(list.items).toHaveLength(1);
    const cur = (await api.request('GET', `${widgets}/w1`)).json as Record<string, any>;
    const put = await api.request('PUT', `${widgets}/w1`, {
      body: { ...cur, spec: { ...cur.spec, color: 'blue' } },
    });
    expect(put.status).toBe(200);
    const merge = await api.request('PATCH', `${widgets}/w1`, {
      body: '{"spec":{"tags":["a","b"]}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(merge.json).toMatchObject({ spec: { color: 'blue', tags: ['a', 'b'] } });
    const jp = await api.request('PATCH', `${widgets}/w1`, {
      body: '[{"op":"replace","path":"/spec/size","value":9}]',
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(jp.json).toMatchObject({ spec: { size: 9 } });
    expect((await api.request('POST', widgets, { body: widget('gone', { color: 'red' }) })).status).toBe(201);
    expect((await api.request('DELETE', `${widgets}/gone`)).status).toBe(200);
    expect((await api.request('GET', `${widgets}/gone`)).status).toBe(404);
  });

  it('watch and deletecollection', async () => {
    const rv = ((await api.request('GET', widgets)).json as { metadata: { resourceVersion: string } })
      .metadata.resourceVersion;
    expect(
      (
        await api.request('POST', widgets, {
          body: widget('x1', { color: 'red' }, { metadata: { name: 'x1', labels: { batch: 'x' } } }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api.request('POST', widgets, {
          body: widget('x2', { color: 'blue' }, { metadata: { name: 'x2', labels: { batch: 'x' } } }),
        })
      ).status,
    ).toBe(201);
    const watch = await api.request('GET', `${widgets}?watch=1&timeoutSeconds=1&resourceVersion=${rv}`);
    const events = watch.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED x1', 'ADDED x2']);
    expect((await api.request('DELETE', `${widgets}?labelSelector=batch%3Dx`)).status).toBe(200);
    const left = (await api.request('GET', widgets)).json as { items: { metadata: { name: string } }[] };
    expect(left.items.map((i) => i.metadata.name)).toEqual(['w1']);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['enum and type', { color: 'green', size: 'big' }, ['spec.color', 'spec.size']],
    ['required and minimum', { size: 0 }, ['spec.color', 'spec.size']],
    ['set duplicates', { color: 'red', tags: ['a', 'a'] }, ['spec.tags[1]']],
  ];
  it.each(invalid)(
    'rejects a widget violating its schema (%s) with 422 and one cause per field',
    async (_n, spec, fields) => {
      const r = await api.request('POST', widgets, { body: widget('bad', spec) });
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({
        kind: 'Status',
        reason: 'Invalid',
        details: { kind: 'Widget', group: 'example.com', name: 'bad' },
      });
      expect(
        (r.json as { details: { causes: { field: string }[] } }).details.causes.map((c) => c.field),
      ).toEqual(fields);
    },
  );

  it('rejects a strategic merge patch on a custom resource with 415', async () => {
    const r = await api.request('PATCH', `${widgets}/w1`, {
      body: '{"spec":{"size":2}}',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    expect(r.status).toBe(415);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType' });
  });

  it('the status sub-resource changes only status; the main resource ignores status', async () => {
    const cur = (await api.request('GET', `${widgets}/w1`)).json as Record<string, any>;
    const st = await api.request('PUT', `${widgets}/w1/status`, {
      body: { ...cur, spec: { color: 'red' }, status: { ready: true } },
    });
    expect(st.status, st.text).toBe(200);
    expect(st.json).toMatchObject({ spec: { color: 'blue' }, status: { ready: true } });
    const main = await api.request('PATCH', `${widgets}/w1`, {
      body: '{"status":{"ready":false},"spec":{"size":4}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(main.json).toMatchObject({ spec: { size: 4 }, status: { ready: true } });
    const sp = await api.request('PATCH', `${widgets}/w1/status`, {
      body: '{"status":{"ready":false},"spec":{"size":5}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(sp.json).toMatchObject({ spec: { size: 4 }, status: { ready: false } });
  });

  it('publishes the resource in OpenAPI v3 (with ETag/304) and v2', async () => {
    const index = (await api.request('GET', '/openapi/v3')).json as {
      paths: Record<string, { serverRelativeURL: string }>;
    };
    const url = index.paths['apis/example.com/v1']!.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/example\.com\/v1\?hash=[0-9A-F]+$/);
    const doc = await api.request('GET', url);
    expect(doc.status).toBe(200);
    const body = doc.json as any;
    expect(body.components.schemas['com.example.v1.Widget'][`${ext}group-version-kind`]).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    const patchOp = body.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patchOp.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
    expect(Object.keys(patchOp.requestBody.content)).not.toContain('application/strategic-merge-patch+json');
    const again = await api.request('GET', url, { headers: { 'if-none-match': String(doc.headers.etag) } });
    expect(again.status).toBe(304);
    const v2 = (await api.request('GET', '/openapi/v2')).json as {
      swagger: string;
      definitions: Record<string, unknown>;
    };
    expect(v2.swagger).toBe('2.0');
    expect(v2.definitions).toHaveProperty('com.example.v1.Widget');
  });

  it('the scale sub-resource reads and writes replicas through the declared paths', async () => {
    const crd = widgetCrd(ext, apiGroup) as any;
    crd.metadata.name = 'pools.example.com';
    crd.spec.names = { plural: 'pools', kind: 'Pool' };
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    schema.properties.spec.properties.replicas = { type: 'integer' };
    schema.properties.spec.properties.selector = { type: 'string' };
    schema.properties.status.properties.replicas = { type: 'integer' };
    crd.spec.versions[0].subresources.scale = {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.spec.selector',
    };
    expect((await api.request('POST', crds, { body: crd })).status).toBe(201);
    const pools = '/apis/example.com/v1/namespaces/default/pools';
    await until(async () => (await api.request('GET', pools)).status === 200, 'pools served');
    const res = (await api.request('GET', '/apis/example.com/v1')).json as { resources: { name: string }[] };
    expect(res.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['pools', 'pools/scale', 'pools/status']),
    );
    expect(
      (
        await api.request('POST', pools, {
          body: {
            apiVersion: 'example.com/v1',
            kind: 'Pool',
            metadata: { name: 'p' },
            spec: { color: 'red', replicas: 2, selector: 'app=p' },
          },
        })
      ).status,
    ).toBe(201);
    const scale = await api.request('GET', `${pools}/p/scale`);
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'p' },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=p' },
    });
    const patched = await api.request('PATCH', `${pools}/p/scale`, {
      body: '{"spec":{"replicas":5}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.json).toMatchObject({ kind: 'Scale', spec: { replicas: 5 } });
    expect((await api.request('GET', `${pools}/p`)).json).toMatchObject({
      spec: { replicas: 5, color: 'red' },
    });
    const stale = await api.request('PUT', `${pools}/p/scale`, {
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'p', resourceVersion: '1' },
        spec: { replicas: 1 },
      },
    });
    expect(stale.status).toBe(409);
    const negative = await api.request('PATCH', `${pools}/p/scale`, {
      body: '{"spec":{"replicas":-1}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(negative.status).toBe(422);
    expect((await api.request('DELETE', `${crds}/pools.example.com`)).status).toBe(200);
  });

  it('rejects a non-structural schema, giving every reason', async () => {
    const bad = widgetCrd(ext, apiGroup) as any;
    bad.metadata.name = 'gadgets.example.com';
    bad.spec.names = { plural: 'gadgets', kind: 'Gadget' };
    bad.spec.versions[0].schema.openAPIV3Schema = {
      type: 'object',
      properties: {
        spec: { properties: { a: { type: 'array' } }, additionalProperties: { type: 'string' } },
        metadata: { type: 'object', properties: { labels: { type: 'object' } } },
      },
    };
    const r = await api.request('POST', crds, { body: bad });
    expect(r.status).toBe(422);
    const fields = (r.json as { details: { causes: { field: string }[] } }).details.causes.map(
      (c) => c.field,
    );
    const p = 'spec.versions[0].schema.openAPIV3Schema';
    expect(fields).toEqual([
      `${p}.properties[spec].type`,
      `${p}.properties[spec].additionalProperties`,
      `${p}.properties[spec].properties[a].items`,
      `${p}.properties[metadata]`,
    ]);
    expect((await api.request('GET', '/apis/example.com/v1/namespaces/default/gadgets')).status).toBe(404);
  });

  it('rejects CRDs with a wrong name, no storage version or no schema', async () => {
    const wrongName = { ...widgetCrd(ext, apiGroup), metadata: { name: 'nope.example.com' } };
    expect((await api.request('POST', crds, { body: wrongName })).status).toBe(422);
    const noStorage = widgetCrd(ext, apiGroup) as any;
    noStorage.metadata.name = 'things.example.com';
    noStorage.spec.names = { plural: 'things', kind: 'Thing' };
    noStorage.spec.versions[0].storage = false;
    delete noStorage.spec.versions[0].schema;
    const r = await api.request('POST', crds, { body: noStorage });
    expect(r.status).toBe(422);
    expect((r.json as { message: string }).message).toContain(
      'must have exactly one version marked as storage version',
    );
    expect((r.json as { message: string }).message).toContain('schemas are required');
  });

  it('deleting the CRD removes the endpoints and the objects', async () => {
    expect((await api.request('DELETE', `${crds}/widgets.example.com`)).status).toBe(200);
    await until(async () => (await api.request('GET', widgets)).status === 404, 'widgets gone');
    expect((await api.request('GET', '/apis/example.com/v1')).status).toBe(404);
    // Recreated, the resource starts empty.
    expect((await api.request('POST', crds, { body: widgetCrd(ext, apiGroup) })).status).toBe(201);
    await until(async () => (await api.request('GET', widgets)).status === 200, 'widgets back');
    expect(((await api.request('GET', widgets)).json as { items: unknown[] }).items).toEqual([]);
    expect((await api.request('DELETE', `${crds}/widgets.example.com`)).status).toBe(200);
    await until(async () => (await api.request('GET', widgets)).status === 404, 'widgets gone again');
  });

  it('serves several versions with None conversion, and a plugged converter', async () => {
    const twoVersions = widgetCrd(ext, apiGroup, ['v1', 'v2'], 'v1') as any;
    twoVersions.spec.versions[0].deprecated = true;
    expect((await api.request('POST', crds, { body: twoVersions })).status).toBe(201);
    const v2 = '/apis/example.com/v2/namespaces/default/widgets';
    await until(async () => (await api.request('GET', v2)).status === 200, 'v2 served');
    const created = await api.request('POST', v2, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'mv' },
        spec: { color: 'red' },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'example.com/v2' });
    expect((await api.request('GET', `${widgets}/mv`)).json).toMatchObject({
      apiVersion: 'example.com/v1',
      spec: { color: 'red' },
    });
    expect((await api.request('GET', `${v2}/mv`)).json).toMatchObject({ apiVersion: 'example.com/v2' });
    // v1 is deprecated in this CRD: every response from it warns.
    const fromV1 = await api.request('GET', `${widgets}/mv`);
    expect(fromV1.headers.warning).toBe(
      '299 - "example.com/v1 Widget is deprecated; use example.com/v2 Widget"',
    );
    expect((await api.request('GET', `${v2}/mv`)).headers.warning).toBeUndefined();
    const list = (await api.request('GET', v2)).json as { items: { apiVersion: string }[] };
    expect(list.items.map((i) => i.apiVersion)).toEqual(['example.com/v2']);
    const patched = await api.request('PATCH', `${v2}/mv`, {
      body: '{"spec":{"size":7}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.json).toMatchObject({ apiVersion: 'example.com/v2', spec: { size: 7 } });

    // A converter: v2 calls the field `colour`.
    setCustomResourceConverter(api.server, 'example.com', 'Widget', (obj, to) => {
      const spec = (obj.spec ?? {}) as Record<string, unknown>;
      if (to === 'example.com/v2') {
        spec.colour = spec.color;
        delete spec.color;
      } else {
        spec.color = spec.colour;
        delete spec.colour;
      }
      return { ...obj, apiVersion: to, spec };
    });
    try {
      const got = (await api.request('GET', `${v2}/mv`)).json as { spec: Record<string, unknown> };
      expect(got.spec).toMatchObject({ colour: 'red', size: 7 });
      expect(got.spec).not.toHaveProperty('color');
      expect((await api.request('GET', `${widgets}/mv`)).json).toMatchObject({ spec: { color: 'red' } });
    } finally {
      setCustomResourceConverter(api.server, 'example.com', 'Widget', undefined);
    }
    expect((await api.request('DELETE', `${crds}/widgets.example.com`)).status).toBe(200);
  });
});
