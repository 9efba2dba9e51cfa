import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, type Store } from '@orchard/store';
import { createSqliteStore } from '@orchard/store-sqlite';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureGateError, parseFeatureGates, resolveFeatureGates } from '../src/feature-gates.js';
import { cm, json } from './lifecycle-helpers.js';

/**
 * The unsafe delete of unreadable objects (spec doc 1 §2.8, §3): a corrupt value written straight
 * into the store, `ignoreStoreReadErrorWithClusterBreakingPotential=true` behind the
 * `AllowUnsafeMalformedObjectDeletion` gate.
 */
const corrupt = new TextEncoder().encode('\u0000not json at all{');
const cms = '/api/v1/namespaces/default/configmaps';
const quiet = { info: () => {}, error: () => {} };

// The unreadable-object path on every backend: SQLite stores the corrupt bytes as they are, too.
const dir = mkdtempSync(join(tmpdir(), 'orchard-unsafe-delete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const backends: [name: string, makeStore: () => Store][] = [
  ['memory', () => createMemoryStore()],
  ['sqlite', () => createSqliteStore({ path: join(dir, `${files++}.sqlite`) })],
];

describe.each(backends)(
  'unsafe delete with AllowUnsafeMalformedObjectDeletion=true (%s store)',
  (_backend, makeStore) => {
    let api: TestServer;
    let store: Store;
    beforeAll(async () => {
      store = makeStore();
      api = await startTestServer({
        insecureHttp: true,
        server: { store, featureGates: { AllowUnsafeMalformedObjectDeletion: true }, logger: quiet },
      });
    });
    afterAll(async () => {
      await api.stop();
      await store.close();
    });

    it('get, list and a normal delete of an undecodable object answer 500 naming its key', async () => {
      await store.create('/core/configmaps/default/bad', corrupt);
      const get = await api.request('GET', `${cms}/bad`);
      expect(get.status).toBe(500);
      expect(json(get)).toMatchObject({ reason: 'InternalError' });
      expect(json<{ message: string }>(get).message).toContain('/core/configmaps/default/bad');
      // Upstream's aggregated list error with the gate on: reason StorageReadError, one cause per key.
      const list = await api.request('GET', cms);
      expect(list.status).toBe(500);
      expect(json(list)).toMatchObject({
        reason: 'StorageReadError',
        message: 'failed to read one or more configmaps from the storage',
        details: {
          kind: 'configmaps',
          name: 'list',
          causes: [{ reason: 'UnexpectedServerResponse', field: '/core/configmaps/default/bad' }],
        },
      });
      const del = await api.request('DELETE', `${cms}/bad`);
      expect(del.status).toBe(500);
      expect((await store.get('/core/configmaps/default/bad')).kv).toBeDefined();
    });

    it('the other delete options must be unset (422)', async () => {
      for (const [extra, name] of [
        [{ propagationPolicy: 'Background' }, 'propagationPolicy'],
        [{ dryRun: ['All'] }, 'dryRun'],
        [{ gracePeriodSeconds: 0 }, 'gracePeriodSeconds'],
        [{ orphanDependents: false }, 'orphanDependents'],
        [{ preconditions: { uid: 'x' } }, 'preconditions'],
      ] as const) {
        const r = await api.request('DELETE', `${cms}/bad`, {
          body: { ignoreStoreReadErrorWithClusterBreakingPotential: true, ...extra },
        });
        expect(r.status).toBe(422);
        expect(json<{ message: string }>(r).message).toBe(
          `DeleteOptions.meta.orch.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .${name}`,
        );
      }
    });

    it('a readable object aborts the unsafe delete (422) and stays', async () => {
      await api.request('POST', cms, { body: cm('fine') });
      const r = await api.request(
        'DELETE',
        `${cms}/fine?ignoreStoreReadErrorWithClusterBreakingPotential=true`,
      );
      expect(r.status).toBe(422);
      expect(json(r)).toMatchObject({
        reason: 'Invalid',
        message:
          'configmaps "fine" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
        details: { name: 'fine', kind: 'configmaps' },
      });
      expect((await api.request('GET', `${cms}/fine`)).status).toBe(200);
    });

    it('deletecollection refuses the option (422)', async () => {
      const r = await api.request('DELETE', cms, {
        body: { ignoreStoreReadErrorWithClusterBreakingPotential: true },
      });
      expect(r.status).toBe(422);
      expect(json<{ message: string }>(r).message).toContain('is not allowed with DELETECOLLECTION');
    });

    it('removes the undecodable object, ignoring finalizers (the value cannot even be read)', async () => {
      const r = await api.request('DELETE', `${cms}/bad`, {
        body: { ignoreStoreReadErrorWithClusterBreakingPotential: true },
      });
      expect(r.status).toBe(200);
      expect(json(r)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        code: 200,
        details: { name: 'bad', kind: 'ConfigMap' },
      });
      expect((await store.get('/core/configmaps/default/bad')).kv).toBeUndefined();
      expect((await api.request('GET', `${cms}/bad`)).status).toBe(404);
      expect((await api.request('GET', cms)).status).toBe(200);
      const again = await api.request(
        'DELETE',
        `${cms}/bad?ignoreStoreReadErrorWithClusterBreakingPotential=true`,
      );
      expect(again.status).toBe(404);
    });

    it('a namespace holding an undecodable object stays Terminating with NamespaceDeletionContentFailure', async () => {
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'broken' } } });
      await store.create('/core/configmaps/broken/x', corrupt);
      await api.request('DELETE', '/api/v1/namespaces/broken');
      for (let i = 0; i < 200; i++) {
        const ns = json<{ status: { conditions?: { type: string; status: string }[] } }>(
          await api.request('GET', '/api/v1/namespaces/broken'),
        );
        if (
          ns.status.conditions?.some(
            (c) => c.type === 'NamespaceDeletionContentFailure' && c.status === 'True',
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const ns = json<{
        status: { phase: string; conditions: { type: string; status: string; message: string }[] };
      }>(await api.request('GET', '/api/v1/namespaces/broken'));
      expect(ns.status.phase).toBe('Terminating');
      expect(ns.status.conditions.find((c) => c.type === 'NamespaceDeletionContentFailure')).toMatchObject({
        status: 'True',
      });
      // The way out: the unsafe delete, then the namespace finishes.
      expect(
        (
          await api.request(
            'DELETE',
            '/api/v1/namespaces/broken/configmaps/x?ignoreStoreReadErrorWithClusterBreakingPotential=true',
          )
        ).status,
      ).toBe(200);
      for (let i = 0; i < 500; i++) {
        if ((await api.request('GET', '/api/v1/namespaces/broken')).status === 404) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await api.request('GET', '/api/v1/namespaces/broken')).status).toBe(404);
    });
  },
);

describe.each(backends)('unsafe delete with the gate off (default) (%s store)', (_backend, makeStore) => {
  let api: TestServer;
  let store: Store;
  beforeAll(async () => {
    store = makeStore();
    api = await startTestServer({ insecureHttp: true, server: { store, logger: quiet } });
  });
  afterAll(async () => {
    await api.stop();
    await store.close();
  });

  it('the option is ignored: the normal delete fails on the unreadable value (500) and nothing is removed', async () => {
    await store.create('/core/configmaps/default/bad', corrupt);
    const r = await api.request('DELETE', `${cms}/bad`, {
      body: { ignoreStoreReadErrorWithClusterBreakingPotential: true },
    });
    expect(r.status).toBe(500);
    expect((await store.get('/core/configmaps/default/bad')).kv).toBeDefined();
  });
});

describe('feature gates', () => {
  it('parses Name=bool lists and rejects unknown names and bad values as upstream', () => {
    expect(
      parseFeatureGates('AllowUnsafeMalformedObjectDeletion=true, APIResponseCompression=false'),
    ).toEqual({
      AllowUnsafeMalformedObjectDeletion: true,
      APIResponseCompression: false,
    });
    expect(() => parseFeatureGates('Nope=true')).toThrow('unrecognized feature gate: Nope');
    expect(() => parseFeatureGates('AllowUnsafeMalformedObjectDeletion=yes')).toThrow(
      'invalid value of AllowUnsafeMalformedObjectDeletion=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    );
    expect(() => parseFeatureGates('AllowUnsafeMalformedObjectDeletion')).toThrow(FeatureGateError);
    expect(resolveFeatureGates().AllowUnsafeMalformedObjectDeletion).toBe(false);
    expect(resolveFeatureGates().APIResponseCompression).toBe(true);
    expect(() => resolveFeatureGates({ Bogus: true } as never)).toThrow('unrecognized feature gate: Bogus');
  });
});
