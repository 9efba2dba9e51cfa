import { CborSeqReader, decodeCbor, encodeCbor } from '@orchard/codecs/cbor';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCorruptions, raw, TABLE, watchRaw } from './helpers/encodings.js';

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
