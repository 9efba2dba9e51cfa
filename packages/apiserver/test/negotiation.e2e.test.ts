import { decodeProtobuf, encodeProtobuf } from '@orchard/codecs/protobuf';
import { kubernetesFlavor } from '@orchard/meta';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../src/index.js';

/** Content negotiation end to end: Protobuf where the kind has a Protobuf form, JSON otherwise, 406 when nothing fits. */
describe('content negotiation (kubernetes flavor)', () => {
  let api: TestServer;
  const pb = 'application/vnd.kubernetes.protobuf';
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes', insecureHttp: true });
    api.server.registry.add(
      defineResource({
        group: 'example.com',
        versions: ['v1'],
        resource: 'widgets',
        kind: 'Widget',
        namespaced: true,
      }),
    );
    await api.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'c' }, data: { a: 'b' } },
    });
    await api.request('POST', '/apis/example.com/v1/namespaces/default/widgets', {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } },
    });
  });
  afterAll(async () => {
    await api.stop();
  });

  async function raw(path: string, headers: Record<string, string>, method = 'GET', body?: Uint8Array) {
    const r = await api.raw(method, path, { headers, ...(body ? { body } : {}) });
    return { status: r.status, type: r.headers['content-type'] ?? null, bytes: new Uint8Array(r.body) };
  }

  it('answers Protobuf for a built-in kind when asked (kubectl typed-client Accept)', async () => {
    const r = await raw('/api/v1/namespaces/default/configmaps/c', { accept: `${pb},application/json` });
    expect(r.status).toBe(200);
    expect(r.type).toBe(pb);
    expect([...r.bytes.slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(decodeProtobuf(r.bytes, kubernetesFlavor)).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: 'b' },
    });
  });

  it('falls back to JSON for a kind without a Protobuf form, and answers 406 when only Protobuf is acceptable', async () => {
    const r = await raw('/apis/example.com/v1/namespaces/default/widgets/w', {
      accept: `${pb},application/json`,
    });
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json');
    const only = await raw('/apis/example.com/v1/namespaces/default/widgets/w', { accept: pb });
    expect(only.status).toBe(406);
    expect(JSON.parse(new TextDecoder().decode(only.bytes))).toMatchObject({
      kind: 'Status',
      reason: 'NotAcceptable',
    });
  });

  it('decodes a Protobuf request body and encodes the error Status as Protobuf when asked', async () => {
    const body = encodeProtobuf(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-pb' }, data: { k: 'v' } },
      kubernetesFlavor,
    );
    const created = await raw(
      '/api/v1/namespaces/default/configmaps',
      { 'content-type': pb, accept: 'application/json' },
      'POST',
      body,
    );
    expect(created.status).toBe(201);
    expect(JSON.parse(new TextDecoder().decode(created.bytes))).toMatchObject({
      metadata: { name: 'from-pb' },
      data: { k: 'v' },
    });
    const again = await raw(
      '/api/v1/namespaces/default/configmaps',
      { 'content-type': pb, accept: pb },
      'POST',
      body,
    );
    expect(again.status).toBe(409);
    expect(again.type).toBe(pb);
    expect(decodeProtobuf(again.bytes, kubernetesFlavor)).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      code: 409,
    });
  });

  it('rejects a malformed Protobuf body with 400', async () => {
    const r = await raw(
      '/api/v1/namespaces/default/configmaps',
      { 'content-type': pb },
      'POST',
      new Uint8Array([1, 2, 3, 4, 5]),
    );
    expect(r.status).toBe(400);
  });

  it('answers YAML lists', async () => {
    const y = await raw('/api/v1/namespaces/default/configmaps', { accept: 'application/yaml' });
    expect(y.type).toBe('application/yaml');
    expect(new TextDecoder().decode(y.bytes)).toContain('kind: ConfigMapList');
  });
});
