import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames } from './helpers/flavors.js';

/**
 * generateName collisions are retried with a fresh name, as upstream's RetryGenerateName (GA in
 * 1.32): 8 draws, then the 409. Collisions are forced by a write step that turns the drawn name
 * into one that exists, for as many draws as a test asks.
 */
describe.each(flavorNames)('generateName retries (%s flavor)', (flavorName) => {
  let api: TestServer;
  let collide = 0;
  let draws = 0;
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
    await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'taken' } },
    });
    api.server.writePipeline.insertBefore('field-manager', {
      name: 'force-collision',
      operations: ['create'],
      run(w) {
        if (!w.obj.metadata?.generateName) return;
        draws++;
        if (collide > 0) {
          collide--;
          (w.obj.metadata as { name: string }).name = 'taken';
        }
      },
    });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('a drawn name that is taken is drawn again', async () => {
    collide = 3;
    draws = 0;
    const r = await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
    });
    expect(r.status).toBe(201);
    expect((r.json as { metadata: { name: string } }).metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(draws).toBe(4);
  });

  it('after 8 taken draws the create is the usual 409', async () => {
    collide = 100;
    draws = 0;
    const r = await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
    });
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ reason: 'AlreadyExists' });
    expect(draws).toBe(8);
  });

  it('an explicit name that is taken is not retried', async () => {
    collide = 0;
    const r = await api.request('POST', cms, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'taken' } },
    });
    expect(r.status).toBe(409);
  });
});
