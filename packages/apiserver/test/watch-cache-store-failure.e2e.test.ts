import { createMemoryStore, type Store, type StoreEvent } from '@orchard/store';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A watch cache whose store watch fails is not silent: the server logs the failure (naming the
 * resource's key prefix and the store's error) and the cache re-lists, so the resource keeps serving.
 */
describe('watch cache store failure (reference server)', () => {
  const inner = createMemoryStore();
  const failure = new Error('store watch broke');
  let failuresLeft = 0;
  // Once armed, the next watch of the whole keyspace (a new watch cache's progress watch) fails at once.
  const store = new Proxy(inner, {
    get(target, p) {
      if (p === 'watch') {
        return (prefix: string, options: Parameters<Store['watch']>[1]): AsyncIterable<StoreEvent> => {
          if (failuresLeft > 0 && prefix === '/') {
            failuresLeft--;
            return {
              [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(failure) }),
            };
          }
          return target.watch(prefix, options);
        };
      }
      const v = Reflect.get(target, p);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Store;
  const logged: { message: string; error: unknown }[] = [];
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({
      insecureHttp: true,
      server: {
        store,
        logger: { info: () => {}, error: (message, error) => logged.push({ message, error }) },
      },
    });
  });
  afterAll(async () => {
    await api.stop();
    await inner.close();
  });

  it('logs the failure with the store error and keeps serving the resource', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    failuresLeft = 1;
    // The first read of configmaps creates their watch cache.
    expect((await api.request('GET', cms)).status).toBe(200);
    for (let i = 0; i < 500 && !logged.some((l) => l.message.includes('watch cache')); i++)
      await new Promise((r) => setTimeout(r, 10));
    const entry = logged.find((l) => l.message.includes('watch cache'));
    expect(entry?.message).toMatch(/watch cache \S+: the store watch failed/);
    expect(entry?.error).toBe(failure);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } });
    expect((await api.request('POST', cms, { body })).status).toBe(201);
    let names: string[] = [];
    for (let i = 0; i < 200 && !names.includes('after'); i++) {
      const list = await api.request('GET', cms);
      names = (list.json as { items: { metadata: { name: string } }[] }).items.map((o) => o.metadata.name);
      if (!names.includes('after')) await new Promise((r) => setTimeout(r, 10));
    }
    expect(names).toContain('after');
  });
});
