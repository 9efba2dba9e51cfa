import { isStoreError } from '@orchard/store';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEtcdStore } from './etcd-store.js';
import { type EtcdCluster, etcdAvailable, etcdBinary, startEtcdCluster } from './testing/etcd-cluster.js';

// TLS with client certificates, and etcd's own users. Skipped only without an etcd binary.
const have = etcdAvailable();
let tlsCluster: EtcdCluster | undefined;
let authCluster: EtcdCluster | undefined;
const enc = new TextEncoder();

beforeAll(async () => {
  if (!have) return;
  [tlsCluster, authCluster] = await Promise.all([
    startEtcdCluster({ tls: { clientCertAuth: true } }),
    startEtcdCluster(),
  ]);
  // etcd auth: a root user (required before enabling) and an app user limited to /app.
  const admin = new Etcd3({ hosts: authCluster.endpoints });
  try {
    await admin.role('root').create();
    await admin.user('root').create('rootpw');
    await admin.user('root').addRole('root');
    const app = await admin.role('app').create();
    await app.grant({ permission: 'Readwrite', range: admin.range({ prefix: '/app' }) });
    await admin.user('orchard').create('s3cret');
    await admin.user('orchard').addRole('app');
    await admin.auth.authEnable();
  } finally {
    admin.close();
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([tlsCluster?.stop(), authCluster?.stop()]);
});

describe.skipIf(!have)(
  have ? 'etcd store security' : `etcd store security (skipped: no etcd binary at ${etcdBinary})`,
  () => {
    it('TLS with a client certificate: reads, writes and watches work', async () => {
      const t = tlsCluster!.tls!;
      const st = createEtcdStore({
        endpoints: tlsCluster!.endpoints,
        prefix: '/tls',
        tls: { ca: t.ca, cert: t.clientCert, key: t.clientKey },
      });
      const from = await st.currentRevision();
      const kv = await st.create('/k', enc.encode('v'));
      expect((await st.get('/k')).kv?.modRevision).toBe(kv.modRevision);
      const it = st.watch('/', { fromRevision: from })[Symbol.asyncIterator]();
      expect((await it.next()).value?.kv.key).toBe('/k');
      await it.return?.();
      await st.close();
    });

    it('TLS without the client certificate etcd requires, or without trusting its CA: Unavailable, not a hang', async () => {
      const t = tlsCluster!.tls!;
      for (const tls of [{ ca: t.ca }, undefined]) {
        const st = createEtcdStore({
          endpoints: tlsCluster!.endpoints,
          prefix: '/tls',
          requestTimeoutMs: 3_000,
          ...(tls ? { tls } : {}),
        });
        const err = await st.get('/k').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isStoreError(err, 'Unavailable')).toBe(true);
        await st.close();
      }
    });

    it('user and password: the store works within its granted prefix; a wrong password is refused clearly', async () => {
      const st = createEtcdStore({
        endpoints: authCluster!.endpoints,
        prefix: '/app',
        auth: { username: 'orchard', password: 's3cret' },
      });
      await st.create('/x', enc.encode('1'));
      expect((await st.list('/')).kvs.map((kv) => kv.key)).toEqual(['/x']);
      await st.close();
      const bad = createEtcdStore({
        endpoints: authCluster!.endpoints,
        prefix: '/app',
        auth: { username: 'orchard', password: 'wrong' },
        requestTimeoutMs: 3_000,
      });
      const err = await bad.get('/x').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isStoreError(err, 'Unavailable')).toBe(true);
      expect((err as Error).message).toContain('etcd refused the credentials');
      await bad.close();
    });
  },
);
