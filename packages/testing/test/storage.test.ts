import { openStorage } from '@orchard/apiserver';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer } from '../src/test-server.js';
import { testStorageBackend } from '../src/test-storage.js';

/** startTestServer's storage choice: memory by default, SQLite by option or ORCHARD_TEST_STORAGE. */
describe('startTestServer storage', () => {
  const saved = process.env.ORCHARD_TEST_STORAGE;
  afterEach(() => {
    if (saved === undefined) delete process.env.ORCHARD_TEST_STORAGE;
    else process.env.ORCHARD_TEST_STORAGE = saved;
  });

  it('ORCHARD_TEST_STORAGE picks the backend; unset or empty is memory; an unknown name throws', () => {
    delete process.env.ORCHARD_TEST_STORAGE;
    expect(testStorageBackend()).toBe('memory');
    process.env.ORCHARD_TEST_STORAGE = '';
    expect(testStorageBackend()).toBe('memory');
    process.env.ORCHARD_TEST_STORAGE = 'sqlite';
    expect(testStorageBackend()).toBe('sqlite');
    process.env.ORCHARD_TEST_STORAGE = '__proto__';
    expect(() => testStorageBackend()).toThrow(
      /^ORCHARD_TEST_STORAGE=__proto__ is not a storage backend \(sqlite, memory/,
    );
  });

  it('storage: sqlite serves from a durable store in a temporary directory, closed by stop()', async () => {
    const api = await startTestServer({ storage: 'sqlite', insecureHttp: true });
    try {
      expect(api.storage).toBe('sqlite');
      const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'c' } },
      });
      expect(r.status).toBe(201);
      expect((await api.server.storage.get('/core/configmaps/default/c')).kv).toBeDefined();
    } finally {
      await api.stop();
    }
    // Closed: the store refuses further use.
    await expect(api.server.storage.get('/core/configmaps/default/c')).rejects.toThrow(/closed/);
  });

  it('a passed store is used as is and reported as custom', async () => {
    process.env.ORCHARD_TEST_STORAGE = 'sqlite';
    const { store } = await openStorage({ backend: 'memory' });
    const api = await startTestServer({ insecureHttp: true, server: { store } });
    expect(api.storage).toBe('custom');
    expect(api.server.storage).toBe(store);
    await api.stop();
    await store.close();
  });
});
