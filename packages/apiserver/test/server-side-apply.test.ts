import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The wire details of apply and managedFields over plain HTTP (both flavors). */
describe.each(['orch', 'kubernetes'] as const)('server-side apply over HTTP (%s flavor)', (flavor) => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ flavor });
  });
  afterAll(async () => {
    await api.stop();
  });
  const path = '/api/v1/namespaces/default/configmaps';
  const applyReq = (
    name: string,
    body: unknown,
    query = 'fieldManager=m',
    headers: Record<string, string> = {},
  ) =>
    api.request('PATCH', `${path}/${name}?${query}`, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/apply-patch+yaml', ...headers },
    });
  const cmBody = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...extra },
    data,
  });

  it('creates with 201, updates with 200, returns managedFields', async () => {
    const c = await applyReq('h1', cmBody('h1', { a: '1' }));
    expect(c.status).toBe(201);
    const created = c.json as {
      metadata: {
        managedFields: {
          manager: string;
          operation: string;
          apiVersion: string;
          fieldsType: string;
          fieldsV1: unknown;
          time: string;
        }[];
      };
    };
    expect(created.metadata.managedFields).toEqual([
      {
        manager: 'm',
        operation: 'Apply',
        apiVersion: 'v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ]);
    const u = await applyReq(
      'h1',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h1\ndata:\n  a: "2"\n',
    );
    expect(u.status).toBe(200);
    expect((u.json as { data: unknown }).data).toEqual({ a: '2' });
  });

  it('requires fieldManager (400) and rejects managedFields in the body (400)', async () => {
    const noManager = await applyReq('h2', cmBody('h2', { a: '1' }), '');
    expect(noManager.status).toBe(400);
    expect((noManager.json as { message: string }).message).toContain('fieldManager');
    const withMf = await applyReq('h2', cmBody('h2', { a: '1' }, { managedFields: [] }));
    expect(withMf.status).toBe(400);
    expect((withMf.json as { message: string }).message).toBe('metadata.managedFields must be nil');
    expect((await api.request('GET', `${path}/h2`)).status).toBe(404);
  });

  it('answers a conflict with 409, reason Conflict and one FieldManagerConflict cause per field', async () => {
    expect((await applyReq('h3', cmBody('h3', { a: '1', b: '1' }), 'fieldManager=first')).status).toBe(201);
    const r = await applyReq('h3', cmBody('h3', { a: '2', b: '2' }), 'fieldManager=second');
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: 'Apply failed with 2 conflicts: conflicts with "first":\n- .data.a\n- .data.b',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.a' },
          { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.b' },
        ],
      },
    });
    const forced = await applyReq('h3', cmBody('h3', { a: '2' }), 'fieldManager=second&force=true');
    expect(forced.status).toBe(200);
    expect((forced.json as { data: unknown }).data).toEqual({ a: '2', b: '1' });
  });

  it('non-apply writes record an Update entry; the manager comes from User-Agent when fieldManager is absent', async () => {
    const created = await api.request('POST', path, {
      body: cmBody('h4', { a: '1' }),
      headers: { 'user-agent': 'my-controller/v0.1 (linux)' },
    });
    expect(created.status).toBe(201);
    const mf = (
      created.json as {
        metadata: { managedFields: { manager: string; operation: string; fieldsV1: unknown }[] };
      }
    ).metadata.managedFields;
    expect(mf.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['my-controller', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }],
    ]);
    const patched = await api.request('PATCH', `${path}/h4?fieldManager=patcher`, {
      body: JSON.stringify({ data: { b: '2' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    const mf2 = (patched.json as { metadata: { managedFields: { manager: string; fieldsV1: unknown }[] } })
      .metadata.managedFields;
    expect(Object.fromEntries(mf2.map((e) => [e.manager, e.fieldsV1]))).toEqual({
      'my-controller': { 'f:data': { '.': {}, 'f:a': {} } },
      patcher: { 'f:data': { 'f:b': {} } },
    });
  });

  it('a PUT with managedFields set to one empty entry resets them; an empty list does not', async () => {
    const c = await applyReq('h5', cmBody('h5', { a: '1' }));
    const obj = c.json as { metadata: Record<string, unknown> };
    const keep = await api.request('PUT', `${path}/h5?fieldManager=putter`, {
      body: { ...obj, metadata: { ...obj.metadata, managedFields: [] } },
    });
    expect(keep.status).toBe(200);
    expect(
      (keep.json as { metadata: { managedFields: { manager: string }[] } }).metadata.managedFields.map(
        (e) => e.manager,
      ),
    ).toEqual(['m']);
    const reset = await api.request('PUT', `${path}/h5?fieldManager=putter`, {
      body: {
        ...(keep.json as object),
        metadata: { ...(keep.json as { metadata: object }).metadata, managedFields: [{}] },
      },
    });
    expect(reset.status).toBe(200);
    expect((reset.json as { metadata: { managedFields?: unknown } }).metadata.managedFields).toBeUndefined();
  });

  it('dry-run apply creates nothing and field validation Strict rejects unknown fields as upstream', async () => {
    const dry = await applyReq('h6', cmBody('h6', { a: '1' }), 'fieldManager=m&dryRun=All');
    expect(dry.status).toBe(201);
    expect((await api.request('GET', `${path}/h6`)).status).toBe(404);
    const strict = await applyReq(
      'h6',
      { ...cmBody('h6', { a: '1' }), bogus: 1 },
      'fieldManager=m&fieldValidation=Strict',
    );
    expect(strict.status).toBe(400);
    expect((strict.json as { message: string }).message).toBe('.bogus: field not declared in schema');
  });

  it('the field manager never fails a non-apply write: untypable list items are left to validation', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'h7' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ image: 'x' }] } },
      },
    };
    const r = await api.request('POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=m', {
      body: dep,
    });
    expect(r.status).toBe(422);
    expect((r.json as { reason: string }).reason).toBe('Invalid');
  });

  it('status is a reset field: an apply carrying status neither owns it nor conflicts with the status writer', async () => {
    const dpath = '/apis/apps/v1/namespaces/default/deployments';
    const dep = (status?: object) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'h8' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
      ...(status ? { status } : {}),
    });
    const applyDep = (status?: object) =>
      api.request('PATCH', `${dpath}/h8?fieldManager=m`, {
        body: JSON.stringify(dep(status)),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
    expect((await applyDep({ replicas: 1 })).status).toBe(201);
    const cur = (await api.request('GET', `${dpath}/h8`)).json as { metadata: object; status?: object };
    const put = await api.request('PUT', `${dpath}/h8/status?fieldManager=ctrl`, {
      body: { ...cur, status: { readyReplicas: 2 } },
    });
    expect(put.status).toBe(200);
    const again = await applyDep({ readyReplicas: 5 });
    expect(again.status).toBe(200);
    const obj = again.json as {
      status: { readyReplicas?: number };
      metadata: {
        managedFields: { manager: string; subresource?: string; fieldsV1: Record<string, unknown> }[];
      };
    };
    expect(obj.status.readyReplicas).toBe(2);
    const m = obj.metadata.managedFields.find((e) => e.manager === 'm');
    expect(m?.fieldsV1).not.toHaveProperty('f:status');
    expect(obj.metadata.managedFields.find((e) => e.manager === 'ctrl')).toMatchObject({
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:readyReplicas': {} } },
    });
  });

  it('an apply that changes nothing writes nothing: same resourceVersion (upstream GuaranteedUpdate)', async () => {
    const first = await applyReq('h9', cmBody('h9', { a: '1' }));
    const again = await applyReq('h9', cmBody('h9', { a: '1' }));
    expect(again.status).toBe(200);
    const rv = (r: { json: unknown }) =>
      (r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    expect(rv(again)).toBe(rv(first));
    const changed = await applyReq('h9', cmBody('h9', { a: '2' }));
    expect(rv(changed)).not.toBe(rv(first));
  });
});
