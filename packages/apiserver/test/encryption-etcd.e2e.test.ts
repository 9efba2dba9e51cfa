import { createResourceTransformers, parseEncryptionConfiguration } from '@orchard/store-encryption';
import { createEtcdStore } from '@orchard/store-etcd';
import { type EtcdCluster, etcdAvailable, etcdBinary, startEtcdCluster } from '@orchard/store-etcd/testing';
import { openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Encryption at rest on etcd (issue 15 item 6): the same wrapper over the etcd backend, so etcd
 * holds ciphertext under the key, the API serves plaintext, and a rotation rewrites on replace.
 */
const have = etcdAvailable();
const quiet = { info: () => {}, error: () => {} };
const secrets = '/api/v1/namespaces/default/secrets';
const markerB64 = Buffer.from('etcd-plaintext-9c2d').toString('base64');
const k = (b: number) => Buffer.alloc(32, b).toString('base64');
const config = (providers: string) =>
  createResourceTransformers(
    parseEncryptionConfiguration(
      `apiVersion: apiserver.config.orch.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ['*.']\n    providers:\n${providers}`,
    ),
  );

describe.skipIf(!have)(
  have
    ? 'encryption at rest on etcd'
    : `encryption at rest on etcd (skipped: no etcd binary at ${etcdBinary})`,
  { timeout: 120_000 },
  () => {
    let cluster: EtcdCluster;
    beforeAll(async () => {
      cluster = await startEtcdCluster({ members: 1 });
    }, 60_000);
    afterAll(async () => {
      await cluster?.stop();
    });

    it('ciphertext in etcd, plaintext through get/list/watch; rotation re-encrypts on replace', async () => {
      const raw = createEtcdStore({ endpoints: cluster.endpoints, prefix: '/enc-test' });
      let api: TestServer = await startTestServer({
        insecureHttp: true,
        server: {
          store: raw,
          encryption: config(`      - secretbox: {keys: [{name: old, secret: ${k(1)}}]}\n`),
          logger: quiet,
        },
      });
      try {
        const w = await openWatch(api, secrets, { resourceVersion: '0' });
        expect(
          (await api.request('POST', secrets, { body: { metadata: { name: 's' }, data: { p: markerB64 } } }))
            .status,
        ).toBe(201);
        const stored = new TextDecoder().decode((await raw.get('/core/secrets/default/s')).kv?.value);
        expect(stored).toMatch(/^k8s:enc:secretbox:v1:old:/);
        expect(stored).not.toContain(markerB64);
        for (let i = 0; i < 200 && w.events.length < 1; i++) await new Promise((r) => setTimeout(r, 25));
        w.close();
        expect(w.events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 's']]);
        const list = await api.request('GET', secrets);
        expect((list.json as { items: { data: { p: string } }[] }).items.map((i) => i.data.p)).toEqual([
          markerB64,
        ]);
        await api.stop();
        api = await startTestServer({
          insecureHttp: true,
          server: {
            store: raw,
            encryption: config(
              `      - aesgcm: {keys: [{name: new, secret: ${k(2)}}]}\n      - secretbox: {keys: [{name: old, secret: ${k(1)}}]}\n`,
            ),
            logger: quiet,
          },
        });
        const before = await api.request('GET', `${secrets}/s`);
        expect(before.status).toBe(200);
        expect((await api.request('PUT', `${secrets}/s`, { body: before.json })).status).toBe(200);
        expect(new TextDecoder().decode((await raw.get('/core/secrets/default/s')).kv?.value)).toMatch(
          /^k8s:enc:aesgcm:v1:new:/,
        );
      } finally {
        await api.stop();
        await raw.close();
      }
    });
  },
);
