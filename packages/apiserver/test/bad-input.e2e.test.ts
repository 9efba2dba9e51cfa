import { connect } from 'node:net';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every error a client can cause answers with a Status and the right code, and loses nothing
 * already stored (checked after every case).
 */
describe.each(['orch', 'kubernetes'] as const)('bad input (%s flavor)', (flavor) => {
  let api: TestServer;
  let before: string;
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    api = await startTestServer({ flavor });
    const r = await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: '1' } },
    });
    expect(r.status).toBe(201);
    before = r.text;
  });
  afterAll(async () => {
    // Nothing stored was lost or changed by any of the bad requests.
    const after = await api.request('GET', `${cms}/keep`);
    expect(after.text).toBe(before);
    const list = await api.request('GET', cms);
    expect((list.json as { items: unknown[] }).items).toHaveLength(1);
    await api.stop();
  });

  type Case = [
    name: string,
    method: string,
    path: string,
    body: string | Uint8Array | object | undefined,
    headers: Record<string, string>,
    code: number,
    reason: string,
    message?: RegExp,
  ];
  const cases: Case[] = [
    [
      'malformed JSON',
      'POST',
      cms,
      '{"metadata": {"name": "x"',
      { 'content-type': 'application/json' },
      400,
      'BadRequest',
      /json parse error/,
    ],
    [
      'malformed YAML',
      'POST',
      cms,
      'metadata:\n  name: x\n bad: [\n',
      { 'content-type': 'application/yaml' },
      400,
      'BadRequest',
      /YAML/,
    ],
    [
      'duplicate YAML keys under fieldValidation=Strict (Warn, the default, only warns: spec doc 1 §4.10)',
      'POST',
      `${cms}?fieldValidation=Strict`,
      'metadata:\n  name: x\nmetadata:\n  name: y\n',
      { 'content-type': 'application/yaml' },
      400,
      'BadRequest',
    ],
    ['a JSON array body', 'POST', cms, '[1,2]', { 'content-type': 'application/json' }, 400, 'BadRequest'],
    ['an empty body', 'POST', cms, '', { 'content-type': 'application/json' }, 400, 'BadRequest'],
    [
      'invalid UTF-8',
      'POST',
      cms,
      new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      { 'content-type': 'application/json' },
      400,
      'BadRequest',
    ],
    [
      'wrong kind for the URL',
      'POST',
      cms,
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } },
      {},
      400,
      'BadRequest',
      /kind in the data \(Secret\) does not match the expected kind \(ConfigMap\)/,
    ],
    [
      'wrong apiVersion for the URL',
      'POST',
      cms,
      { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      {},
      400,
      'BadRequest',
      /API version in the data \(apps\/v1\)/,
    ],
    [
      'namespace in body differs from URL',
      'POST',
      cms,
      { metadata: { name: 'x', namespace: 'other' } },
      {},
      400,
      'BadRequest',
      /does not match the namespace sent on the request/,
    ],
    [
      'name in body differs from URL (PUT)',
      'PUT',
      `${cms}/keep`,
      { metadata: { name: 'other' } },
      {},
      400,
      'BadRequest',
      /does not match the name on the URL/,
    ],
    [
      'invalid name',
      'POST',
      cms,
      { metadata: { name: 'Not_Valid' } },
      {},
      422,
      'Invalid',
      /ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid"/,
    ],
    ['missing name', 'POST', cms, { metadata: {} }, {}, 422, 'Invalid', /name or generateName is required/],
    [
      'invalid data key',
      'POST',
      cms,
      { metadata: { name: 'x' }, data: { 'bad key': 'v' } },
      {},
      422,
      'Invalid',
      /data\[bad key\]/,
    ],
    [
      'resourceVersion on create',
      'POST',
      cms,
      { metadata: { name: 'x', resourceVersion: '5' } },
      {},
      400,
      'BadRequest',
      /resourceVersion should not be set/,
    ],
    [
      'unknown resource',
      'GET',
      '/api/v1/namespaces/default/widgets',
      undefined,
      {},
      404,
      'NotFound',
      /could not find the requested resource/,
    ],
    ['unknown group', 'GET', '/apis/example.com/v1/widgets', undefined, {}, 404, 'NotFound'],
    ['unknown version', 'GET', '/api/v2/namespaces', undefined, {}, 404, 'NotFound'],
    ['unknown sub-resource', 'GET', `${cms}/keep/bogus`, undefined, {}, 404, 'NotFound'],
    [
      'namespaced type without a namespace',
      'POST',
      '/api/v1/configmaps',
      { metadata: { name: 'x' } },
      {},
      404,
      'NotFound',
    ],
    [
      'missing namespace',
      'POST',
      '/api/v1/namespaces/nope/configmaps',
      { metadata: { name: 'x' } },
      {},
      404,
      'NotFound',
      /namespaces "nope" not found/,
    ],
    [
      'object not found',
      'GET',
      `${cms}/nope`,
      undefined,
      {},
      404,
      'NotFound',
      /^configmaps "nope" not found$/,
    ],
    [
      'delete of a missing object',
      'DELETE',
      `${cms}/nope`,
      undefined,
      {},
      404,
      'NotFound',
      /^configmaps "nope" not found$/,
    ],
    [
      'already exists',
      'POST',
      cms,
      { metadata: { name: 'keep' } },
      {},
      409,
      'AlreadyExists',
      /^configmaps "keep" already exists$/,
    ],
    [
      'stale resourceVersion',
      'PUT',
      `${cms}/keep`,
      { metadata: { name: 'keep', resourceVersion: '1' }, data: { a: '2' } },
      {},
      409,
      'Conflict',
    ],
    [
      'non-numeric resourceVersion',
      'PUT',
      `${cms}/keep`,
      { metadata: { name: 'keep', resourceVersion: 'abc' } },
      {},
      400,
      'BadRequest',
    ],
    [
      'unsupported media type',
      'POST',
      cms,
      'name=x',
      { 'content-type': 'text/plain' },
      415,
      'UnsupportedMediaType',
      /unknown format/,
    ],
    [
      'unsupported patch type',
      'PATCH',
      `${cms}/keep`,
      '{}',
      { 'content-type': 'application/xml' },
      415,
      'UnsupportedMediaType',
    ],
    [
      'unacceptable Accept',
      'GET',
      `${cms}/keep`,
      undefined,
      { accept: 'text/html' },
      406,
      'NotAcceptable',
      /only the following media types are accepted/,
    ],
    [
      'unacceptable Accept on a list',
      'GET',
      cms,
      undefined,
      { accept: 'application/json;as=Table;g=meta.example;v=v1' },
      406,
      'NotAcceptable',
    ],
    ['bad dryRun value', 'POST', `${cms}?dryRun=Some`, { metadata: { name: 'x' } }, {}, 400, 'BadRequest'],
    ['bad limit', 'GET', `${cms}?limit=abc`, undefined, {}, 400, 'BadRequest'],
    ['bad label selector', 'GET', `${cms}?labelSelector=a%20b`, undefined, {}, 400, 'BadRequest'],
    [
      'unknown field selector',
      'GET',
      `${cms}?fieldSelector=spec.x%3D1`,
      undefined,
      {},
      400,
      'BadRequest',
      /field label not supported: spec.x/,
    ],
    ['bad continue token', 'GET', `${cms}?limit=1&continue=garbage`, undefined, {}, 400, 'BadRequest'],
    ['POST to an item', 'POST', `${cms}/keep`, { metadata: { name: 'keep' } }, {}, 405, 'MethodNotAllowed'],
    ['PUT to a collection', 'PUT', cms, { metadata: { name: 'keep' } }, {}, 405, 'MethodNotAllowed'],
    [
      'PATCH to a collection',
      'PATCH',
      cms,
      '{}',
      { 'content-type': 'application/merge-patch+json' },
      405,
      'MethodNotAllowed',
    ],
    [
      'method not allowed on a review',
      'GET',
      '/apis/authentication.ORCH/v1/selfsubjectreviews',
      undefined,
      {},
      405,
      'MethodNotAllowed',
    ],
  ];

  it.each(cases)('%s (%s %s)', async (_name, method, path, body, headers, code, reason, message) => {
    const r = await api.request(method, path.replace('ORCH', flavor === 'orch' ? 'orch.io' : 'k8s.io'), {
      body,
      headers,
    });
    expect(r.status).toBe(code);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
    if (message) expect((r.json as { message: string }).message).toMatch(message);
  });

  it('sends details on a 404 as upstream does: {} for an unknown path, name and kind for a missing object', async () => {
    // kubectl debug dereferences details unguarded; a 404 without it crashed the client.
    const path = await api.request('GET', '/api/v1/namespaces/default/widgets');
    expect(path.json).toMatchObject({ code: 404, reason: 'NotFound', details: {} });
    const obj = await api.request('GET', `${cms}/missing`);
    expect((obj.json as { details: unknown }).details).toEqual({ name: 'missing', kind: 'configmaps' });
  });

  it('answers 422 with one cause per invalid field, details naming the Kind', async () => {
    // (A wrongly typed field would be a 400 decoding error instead, as upstream.)
    const r = await api.request('POST', cms, {
      body: { metadata: { name: 'Bad!' }, data: { 'bad key!': 'x' } },
    });
    expect(r.status).toBe(422);
    const details = (
      r.json as { details: { kind: string; name: string; causes: { field: string; reason: string }[] } }
    ).details;
    expect(details.kind).toBe('ConfigMap');
    expect(details.name).toBe('Bad!');
    expect(details.causes.map((c) => c.field)).toEqual(['metadata.name', 'data[bad key!]']);
    expect(details.causes[0]?.reason).toBe('FieldValueInvalid');
  });

  it('answers a 10 MiB body with 413 and keeps serving', async () => {
    const big = JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(10 * 1024 * 1024) } });
    const r = await api.request('POST', cms, { body: big, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    expect((await api.request('GET', `${cms}/big`)).status).toBe(404);
    expect((await api.request('GET', `${cms}/keep`)).status).toBe(200);
  });

  it('uses the configured body limit', async () => {
    const small = await startTestServer({ flavor, insecureHttp: true, server: { maxRequestBodyBytes: 100 } });
    try {
      const r = await small.request('POST', cms, {
        body: { metadata: { name: 'x' }, data: { a: 'y'.repeat(200) } },
      });
      expect(r.status).toBe(413);
      expect((r.json as { message: string }).message).toContain('100');
      const ok = await small.request('POST', cms, { body: { metadata: { name: 'x' } } });
      expect(ok.status).toBe(201);
    } finally {
      await small.stop();
    }
  });

  it('answers requests the HTTP parser rejects with a Status too', async () => {
    const plain = await startTestServer({ flavor, insecureHttp: true });
    try {
      const { port } = new URL(plain.url);
      const rawExchange = (data: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(Number(port), '127.0.0.1', () => socket.end(data));
          let out = '';
          socket.on('data', (d: Buffer) => {
            out += d.toString();
          });
          socket.on('close', () => resolve(out));
          socket.on('error', reject);
        });
      const bad = await rawExchange(
        'GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n',
      );
      expect(bad).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code: 400 });
      const huge = await rawExchange(
        `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    } finally {
      await plain.stop();
    }
  });

  it('encodes the Status as YAML when the client accepts only YAML', async () => {
    const r = await api.request('GET', `${cms}/nope`, { headers: { accept: 'application/yaml' } });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/yaml');
    expect(r.text).toContain('reason: NotFound');
  });
});
