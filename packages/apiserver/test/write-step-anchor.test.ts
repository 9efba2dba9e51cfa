import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The docs tell users where to insert their own write step: before `field-manager`, so what the step
 * sets is recorded in `managedFields` (and validated) like the rest of the request's changes.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const docs = [
  'docs/writes.md',
  'docs/testing.md',
  'docs/reference-server.md',
  'packages/apiserver/README.md',
];

describe('a user write step', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
    api.server.writePipeline.insertBefore('field-manager', {
      name: 'label-everything',
      operations: ['create'],
      run: (w) => {
        w.obj.metadata = { ...w.obj.metadata, labels: { ...w.obj.metadata?.labels, seen: 'yes' } };
      },
    });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('inserted before field-manager is recorded in managedFields', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps?fieldManager=me', {
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c' },
        data: { a: 'b' },
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, r.text).toBe(201);
    const obj = r.json as {
      metadata: { labels?: Record<string, string>; managedFields?: { manager: string; fieldsV1: unknown }[] };
    };
    expect(obj.metadata.labels).toEqual({ seen: 'yes' });
    const mine = obj.metadata.managedFields?.find((m) => m.manager === 'me');
    expect(mine?.fieldsV1).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:seen': {} } } });
  });

  it('the docs name that anchor and the real default order', () => {
    const names = api.server.writePipeline.names().filter((n) => n !== 'label-everything');
    for (const file of docs) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).not.toMatch(/insertBefore\('validation'/);
    }
    const writes = readFileSync(join(root, 'docs/writes.md'), 'utf8');
    expect(writes).toMatch(/insertBefore\('field-manager'/);
    const listed = /`crd-terminating` \(.*?\) →[\s\S]*?`version-out`/.exec(writes)?.[0] ?? '';
    const documented = [...listed.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect(documented[0]).toBe('crd-terminating');
    expect(documented).toEqual(names);
  });
});
