import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchFlavor } from '@orchard/meta';
import type { Store } from '@orchard/store';
import { createResourceTransformers, parseEncryptionConfiguration } from '@orchard/store-encryption';
import { createSqliteStore } from '@orchard/store-sqlite';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Encryption at rest through the real server on SQLite (issue 15 item 6, doc 1 §3's unreadable
 * object): the database never holds a Secret's plaintext; rotation by order re-encrypts on write;
 * a key removed from the configuration turns its objects into decryption failures that reads and
 * lists report as upstream does and the unsafe delete removes.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-encryption-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const quiet = { info: () => {}, error: () => {} };
const secrets = '/api/v1/namespaces/default/secrets';
const marker = 'plaintext-marker-7f3a91';
const markerB64 = Buffer.from(marker).toString('base64');
const key1 = Buffer.alloc(32, 0x11).toString('base64');
const key2 = Buffer.alloc(32, 0x22).toString('base64');

function config(providers: string) {
  return createResourceTransformers(
    parseEncryptionConfiguration(
      `apiVersion: apiserver.config.orch.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
${providers}`,
      { flavor: orchFlavor },
    ),
  );
}
const onlyKey1 = `      - aesgcm: {keys: [{name: key1, secret: ${key1}}]}\n`;
const key2ThenKey1 = `      - aesgcm: {keys: [{name: key2, secret: ${key2}}, {name: key1, secret: ${key1}}]}\n`;
const onlyKey2 = `      - aesgcm: {keys: [{name: key2, secret: ${key2}}]}\n`;

/** Every byte SQLite wrote for this data directory (the database and its WAL). */
function databaseBytes(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
}

const secret = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  data: { password: markerB64 },
});

describe('encryption at rest on SQLite (in-process server, restarted with new configurations)', () => {
  const dataDir = join(root, 'db');
  const path = join(dataDir, 'orchard.sqlite');
  let api: TestServer | undefined;
  let store: Store | undefined;

  async function start(providers: string): Promise<TestServer> {
    await stop();
    store = createSqliteStore({ path });
    api = await startTestServer({
      insecureHttp: true,
      server: {
        store,
        encryption: config(providers),
        featureGates: { AllowUnsafeMalformedObjectDeletion: true },
        logger: quiet,
      },
    });
    return api;
  }
  async function stop() {
    await api?.stop();
    await store?.close();
    api = undefined;
    store = undefined;
  }
  afterAll(stop);
  const raw = async (name: string) =>
    new TextDecoder().decode((await (store as Store).get(`/core/secrets/default/${name}`)).kv?.value);

  it('a Secret is stored encrypted with the first key, a ConfigMap (not listed) in plaintext', async () => {
    mkdirSync(dataDir, { recursive: true });
    const s = await start(onlyKey1);
    expect((await s.request('POST', secrets, { body: secret('a') })).status).toBe(201);
    expect((await s.request('POST', secrets, { body: secret('old') })).status).toBe(201);
    const cm = { metadata: { name: 'visible' }, data: { note: `cm-${marker}` } };
    expect((await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm })).status).toBe(201);
    expect(await raw('a')).toMatch(/^k8s:enc:aesgcm:v1:key1:/);
    const got = await s.request('GET', `${secrets}/a`);
    expect(got.status).toBe(200);
    expect((got.json as { data: { password: string } }).data.password).toBe(markerB64);
    await stop();
    const bytes = databaseBytes(dataDir);
    // The grep can find things: the ConfigMap's value is there in plaintext.
    expect(bytes.includes(`cm-${marker}`)).toBe(true);
    expect(bytes.includes(markerB64)).toBe(false);
  });

  it('rotation: key2 first still reads key1 values; an unchanged replace re-encrypts with key2', async () => {
    const s = await start(key2ThenKey1);
    // Watches see plaintext objects, in order, with their resourceVersions, whatever key wrote them.
    const w = await openWatch(s, secrets, { resourceVersion: '0' });
    const before = await s.request('GET', `${secrets}/a`);
    expect(before.status).toBe(200);
    const rv = (before.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const put = await s.request('PUT', `${secrets}/a`, { body: before.json });
    expect(put.status).toBe(200);
    // A stale value is written even though nothing changed: a new resourceVersion, the new key.
    expect(
      Number((put.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion),
    ).toBeGreaterThan(Number(rv));
    expect(await raw('a')).toMatch(/^k8s:enc:aesgcm:v1:key2:/);
    expect(await raw('old')).toMatch(/^k8s:enc:aesgcm:v1:key1:/);
    const putRv = (put.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    for (let i = 0; i < 200 && w.events.length < 3; i++) await new Promise((r) => setTimeout(r, 25));
    w.close();
    const seen = w.events.map((e) => {
      const o = e.object as {
        metadata: { name: string; resourceVersion: string };
        data: { password: string };
      };
      return [e.type, o.metadata.name, o.data.password];
    });
    expect(seen).toEqual([
      ['ADDED', 'a', markerB64],
      ['ADDED', 'old', markerB64],
      ['MODIFIED', 'a', markerB64],
    ]);
    expect(w.events[2]?.object.metadata.resourceVersion).toBe(putRv);
    // Once re-encrypted, a replace that changes nothing writes nothing (upstream's no-op update).
    const again = await s.request('PUT', `${secrets}/a`, { body: put.json });
    expect((again.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(
      (put.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
    );
  });

  it('key1 removed: the object it encrypted is a decryption failure for get and list, others stay readable', async () => {
    const s = await start(onlyKey2);
    expect((await s.request('GET', `${secrets}/a`)).status).toBe(200);
    const get = await s.request('GET', `${secrets}/old`);
    expect(get.status).toBe(500);
    expect(get.json).toMatchObject({
      reason: 'InternalError',
      message:
        'Internal error occurred: StorageError: corrupt object, Code: 7, Key: /core/secrets/default/old, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: no matching key was found for the provided AES transformer',
    });
    const list = await s.request('GET', secrets);
    expect(list.status).toBe(500);
    expect(list.json).toMatchObject({
      reason: 'StorageReadError',
      message: 'failed to read one or more secrets from the storage',
      details: { kind: 'secrets', name: 'list', causes: [{ field: '/core/secrets/default/old' }] },
    });
    expect((await s.request('DELETE', `${secrets}/old`)).status).toBe(500);
    expect(await raw('old')).toMatch(/^k8s:enc:aesgcm:v1:key1:/);
  });

  it('the unsafe delete removes it; reads and lists recover', async () => {
    const s = api as TestServer;
    const del = await s.request(
      'DELETE',
      `${secrets}/old?ignoreStoreReadErrorWithClusterBreakingPotential=true`,
    );
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'old', kind: 'Secret' },
    });
    expect((await s.request('GET', `${secrets}/old`)).status).toBe(404);
    const list = await s.request('GET', secrets);
    expect(list.status).toBe(200);
    expect(
      (list.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name),
    ).toEqual(['a']);
  });

  it('without the gate, a list names the first unreadable key as upstream ("unable to transform key")', async () => {
    await stop();
    store = createSqliteStore({ path });
    api = await startTestServer({
      insecureHttp: true,
      server: { store, encryption: config(onlyKey1), logger: quiet },
    });
    const list = await api.request('GET', secrets);
    expect(list.status).toBe(500);
    expect(list.json).toMatchObject({
      reason: 'InternalError',
      message:
        'Internal error occurred: unable to transform key "/core/secrets/default/a": no matching key was found for the provided AES transformer',
    });
    // A get answers the transformer's words alone, as upstream without the gate.
    const get = await api.request('GET', `${secrets}/a`);
    expect(get.status).toBe(500);
    expect(get.json).toMatchObject({
      reason: 'InternalError',
      message: 'Internal error occurred: no matching key was found for the provided AES transformer',
    });
    // Without the gate the option is dropped, as upstream drops a disabled field: a normal delete, 500.
    const del = await api.request(
      'DELETE',
      `${secrets}/a?ignoreStoreReadErrorWithClusterBreakingPotential=true`,
    );
    expect(del.status).toBe(500);
    expect(del.json).toMatchObject({ reason: 'InternalError' });
    expect(await raw('a')).toMatch(/^k8s:enc:aesgcm:v1:key2:/);
  });
});
