import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { createInformer, createRestClient, loadKubeconfig, resolveConnection } from '@orchard/client';
import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnKubectl } from './helpers/kubectl-watch.js';

/**
 * Real clients stay in sync through a forced 410 under the `kubernetes` flavor: the store is
 * compacted and every watch cache re-initialized, so open watches end with an ERROR 410 and any
 * resume from an old version gets 410 — what happens upstream when etcd compaction kills the cacher's
 * watch. @kubernetes/client-node 2.0.1's informer (undici pinned to 7.16.0 on Node 20), stock
 * `kubectl get -w`, and our own informer.
 */
const NS = 'sync';
const base = `/api/v1/namespaces/${NS}/configmaps`;

let api: TestServer;

async function serverState(): Promise<Map<string, string>> {
  const list = (await api.request('GET', base)).json as { items: k8s.V1ConfigMap[] };
  return new Map(list.items.map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string]));
}

async function eventually(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function forced410(): Promise<void> {
  await api.server.storage.compact(await api.server.storage.currentRevision());
  await api.server.watchCaches.restartAll();
}

const create = (name: string) =>
  api.request('POST', base, { body: { metadata: { name }, data: { v: '1' } } });

beforeAll(async () => {
  api = await startTestServer({ flavor: 'kubernetes' });
  await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
  for (const n of ['a', 'b', 'c']) await create(n);
});
afterAll(async () => {
  await api.stop();
});

describe('real clients through a forced 410 (kubernetes flavor)', () => {
  it('@kubernetes/client-node 2.0.1 informer relists and stays in sync', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    let lists = 0;
    const listFn = () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: NS });
    };
    const informer = k8s.makeInformer(kc, base, listFn);
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    const cacheState = () =>
      new Map(
        informer.list().map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string]),
      );
    await informer.start();
    try {
      await eventually('initial sync', async () => cacheState().size === 3);
      await create('d');
      await eventually('d seen', () => seen.includes('add d'));
      const listsBefore = lists;
      await forced410();
      // Changes right after the 410: the informer must pick them up through its relist + new watch.
      await api.request('DELETE', `${base}/a`);
      await create('e');
      await api.request('PUT', `${base}/b`, { body: { metadata: { name: 'b' }, data: { v: '2' } } });
      await eventually('relist after 410', () => lists > listsBefore);
      const want = await serverState();
      await eventually('cache equals a fresh list', () => {
        const got = cacheState();
        return got.size === want.size && [...want].every(([k, v]) => got.get(k) === v);
      });
      // And it keeps following the new watch.
      await create('f');
      await eventually('f seen', () => cacheState().has('f'));
      expect(cacheState()).toEqual(await serverState());
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('@orchard/client informer relists after the 410 and stays in sync', async () => {
    const conn = resolveConnection(loadKubeconfig(api.kubeconfigPath));
    const client = createRestClient(conn);
    const inf = createInformer({ client, path: base, backoff: { initialMs: 10 } });
    inf.start();
    try {
      await inf.synced();
      // Make sure the watch is open (an event arrived through it) before forcing the 410.
      await create('g0');
      await eventually('g0 seen', () => inf.get(`${NS}/g0`) !== undefined);
      await forced410();
      await create('g');
      await api.request('DELETE', `${base}/c`);
      const want = await serverState();
      await eventually('cache equals a fresh list', () => {
        const got = new Map(
          inf.list().map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string]),
        );
        return got.size === want.size && [...want].every(([k, v]) => got.get(k) === v);
      });
      expect(inf.stats.relistsAfterGone).toBeGreaterThanOrEqual(1);
    } finally {
      await inf.stop();
    }
  });

  it('@orchard/client informer resumes from its last resourceVersion when the server ends a watch (no relist)', async () => {
    const conn = resolveConnection(loadKubeconfig(api.kubeconfigPath));
    const inf = createInformer({
      client: createRestClient(conn),
      path: base,
      timeoutSeconds: () => 1,
      backoff: { initialMs: 10 },
    });
    inf.start();
    try {
      await inf.synced();
      await eventually('a second watch after the server ended the first', () => inf.stats.watches >= 2);
      await create('r1');
      await eventually('r1 seen', () => inf.get(`${NS}/r1`) !== undefined);
      await eventually('a third watch', () => inf.stats.watches >= 3);
      await api.request('DELETE', `${base}/r1`);
      await eventually('r1 deletion seen', () => inf.get(`${NS}/r1`) === undefined);
      expect(inf.stats.lists).toBe(1);
      expect(inf.stats.relistsAfterGone).toBe(0);
      const want = await serverState();
      expect(
        new Map(inf.list().map((o) => [o.metadata?.name as string, o.metadata?.resourceVersion as string])),
      ).toEqual(want);
    } finally {
      await inf.stop();
    }
  });

  // Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
  it.skipIf(!kubectlAvailable())(
    'kubectl get -w follows every change, then reports the 410 Expired',
    async () => {
      const cache = mkdtempSync(join(tmpdir(), 'orchard-kubectl-w-'));
      const w = spawnKubectl(
        [
          '-n',
          NS,
          'get',
          'configmaps',
          '-w',
          '--output-watch-events',
          '-o',
          'jsonpath={.type} {.object.metadata.name} {.object.metadata.resourceVersion} {.object.reason} {.object.code}{"\\n"}',
        ],
        api.kubeconfigPath,
        cache,
      );
      try {
        const state = await serverState();
        // kubectl lists (prints ADDED rows for the list), then watches from the list's version.
        await eventually('kubectl printed the list', () =>
          [...state.keys()].every((n) => w.out().includes(`ADDED ${n} `)),
        );
        await create('k1');
        await api.request('PUT', `${base}/k1`, { body: { metadata: { name: 'k1' }, data: { v: '2' } } });
        await api.request('DELETE', `${base}/k1`);
        await eventually('kubectl printed the changes', () => w.out().includes('DELETED k1 '));
        const lines = w.out().trim().split('\n');
        const k1 = lines.filter((l) => l.includes(' k1 ')).map((l) => l.split(' ')[0]);
        expect(k1).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
        await forced410();
        // kubectl does not re-watch: it reports the ERROR event's Status and exits; a fresh `get` is in sync.
        const { code, stderr } = await w.exit();
        expect(code, stderr).toBe(0);
        expect(w.out().trim().split('\n').at(-1)?.replace(/\s+/g, ' ')).toBe('ERROR Expired 410');
        // A fresh kubectl get after the 410 shows exactly the server's state.
        await create('k2');
        const again = await kubectl(
          [
            '-n',
            NS,
            'get',
            'configmaps',
            '-o',
            'jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion}{"\\n"}{end}',
          ],
          { kubeconfig: api.kubeconfigPath, cacheDir: cache },
        );
        expect(again.code).toBe(0);
        const got = new Map(
          again.stdout
            .trim()
            .split('\n')
            .map((l) => l.split('=') as [string, string]),
        );
        expect(got).toEqual(await serverState());
      } finally {
        w.stop();
      }
    },
  );
});
