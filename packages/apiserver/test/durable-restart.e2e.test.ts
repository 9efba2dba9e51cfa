import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@orchard/store-sqlite';
import { crdFixture, kubectl, kubectlAvailable } from '@orchard/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CliServer, startCliServer } from './helpers/cli-server.js';

/**
 * The CLI's durable default (issue 15 item 3): `orchard-apiserver --data-dir D` on SQLite, stopped and
 * started again, serves every object byte for byte as before (resourceVersion, uid, managedFields),
 * with the same certificates (an old kubeconfig keeps working), revisions that keep increasing, and a
 * watch from a pre-restart resourceVersion that continues without a gap, or answers 410 once that
 * version is compacted away, never a gap.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-restart-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cms = '/api/v1/namespaces/demo/configmaps';
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgets = '/apis/example.com/v1/namespaces/demo/widgets';
const applyHeaders = { 'content-type': 'application/apply-patch+yaml' };
/** A server-side apply of the ConfigMap `b` with `data`; `query` is the field manager (and `&force=true`). */
const applyB = (api: CliServer, query: string, data: Record<string, string>) =>
  api.request(
    'PATCH',
    `${cms}/b?fieldManager=${query}`,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data },
    applyHeaders,
  );

const widgetCrd = crdFixture({
  group: 'example.com',
  plural: 'widgets',
  kind: 'Widget',
  spec: { color: { type: 'string' } },
});

const rvOf = (json: unknown) =>
  Number((json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);

/** Waits (bounded, 10 s) until `check` holds. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function credentials(kubeconfigPath: string) {
  const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  return {
    ca: kc.clusters[0]?.cluster['certificate-authority-data'],
    cert: kc.users[0]?.user['client-certificate-data'],
    key: kc.users[0]?.user['client-key-data'],
  };
}

describe('a restart on SQLite (--data-dir)', () => {
  const dataDir = join(root, 'data');
  const kubeconfig = join(root, 'admin.kubeconfig');
  const args = ['--flavor', 'kubernetes', '--data-dir', dataDir];
  /** Paths whose GET answer must be identical after the restart. */
  const paths: string[] = [];
  const before = new Map<string, string>();
  /** resourceVersions of every configmap write after `watchFrom`, in order. */
  const cmWritesAfter: number[] = [];
  let watchFrom = 0;
  let lastRevision = 0;
  let credsBefore: ReturnType<typeof credentials>;
  let continueToken = '';

  it('first run: objects of every kind of write, then a clean stop', async () => {
    const api = await startCliServer(args, kubeconfig);
    try {
      expect(api.stderr()).toContain(`storage: sqlite ${join(dataDir, 'orchard.sqlite')}`);
      expect((await api.request('POST', '/api/v1/namespaces', { metadata: { name: 'demo' } })).status).toBe(
        201,
      );
      const a = await api.request('POST', cms, { metadata: { name: 'a' }, data: { k: '1' } });
      expect(a.status).toBe(201);
      watchFrom = rvOf(a.json);
      const b = await applyB(api, 'tester', { owned: 'yes' });
      expect(b.status).toBe(201);
      cmWritesAfter.push(rvOf(b.json));
      const a2 = await api.request('PUT', `${cms}/a`, { ...(a.json as object), data: { k: '2' } });
      expect(a2.status).toBe(200);
      cmWritesAfter.push(rvOf(a2.json));
      const gone = await api.request('POST', cms, { metadata: { name: 'gone' } });
      cmWritesAfter.push(rvOf(gone.json));
      const del = await api.request('DELETE', `${cms}/gone`);
      expect(del.status).toBe(200);
      const secret = await api.request('POST', '/api/v1/namespaces/demo/secrets', {
        metadata: { name: 's' },
        stringData: { password: 'p' },
      });
      expect(secret.status).toBe(201);
      expect((await api.request('POST', crds, widgetCrd)).status).toBe(201);
      await until('the widgets resource', async () => (await api.request('GET', widgets)).status === 200);
      expect(
        (
          await api.request('POST', widgets, {
            apiVersion: 'example.com/v1',
            kind: 'Widget',
            metadata: { name: 'w1' },
            spec: { color: 'red' },
          })
        ).status,
      ).toBe(201);
      const w2 = await api.request(
        'PATCH',
        `${widgets}/w2?fieldManager=tester`,
        { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { color: 'blue' } },
        applyHeaders,
      );
      expect(w2.status).toBe(201);
      const b2 = await applyB(api, 'other&force=true', { second: 'manager' });
      expect(b2.status).toBe(200);
      cmWritesAfter.push(rvOf(b2.json));
      const managed = (b2.json as { metadata: { managedFields: { manager: string }[] } }).metadata
        .managedFields;
      expect(managed.map((m) => m.manager).sort()).toEqual(['other', 'tester']);

      paths.push(
        '/api/v1/namespaces/demo',
        `${cms}/a`,
        `${cms}/b`,
        '/api/v1/namespaces/demo/secrets/s',
        `${crds}/widgets.example.com`,
        `${widgets}/w1`,
        `${widgets}/w2`,
        `${widgets}`,
        '/api/v1/namespaces/default',
      );
      for (const p of paths) {
        const r = await api.request('GET', p);
        expect(r.status, p).toBe(200);
        before.set(p, r.text);
      }
      lastRevision = rvOf(await (async () => (await api.request('GET', cms)).json)());
      credsBefore = credentials(kubeconfig);
      const page = await api.request('GET', `${cms}?limit=1`);
      continueToken = (page.json as { metadata: { continue: string } }).metadata.continue;
      expect(continueToken).toBeTruthy();
    } finally {
      expect(await api.stop()).toBe(0);
    }
  }, 90_000);

  it('second run: every object byte for byte, the same certificates, revisions keep increasing', async () => {
    const api = await startCliServer(args, kubeconfig);
    try {
      expect(api.stderr()).toContain('CA reused, serving reused, admin reused');
      // Only the server URL may change (a new port): the old kubeconfig's credentials are the same.
      expect(credentials(kubeconfig)).toEqual(credsBefore);
      for (const p of paths) {
        const r = await api.request('GET', p);
        expect(r.status, p).toBe(200);
        expect(r.text, p).toBe(before.get(p));
      }
      expect((await api.request('GET', `${cms}/gone`)).status).toBe(404);
      const list = await api.request('GET', cms);
      expect(
        (list.json as { items: { metadata: { name: string } }[] }).items
          .map((i) => i.metadata.name)
          .filter((name) => !name.endsWith('root-ca.crt')),
      ).toEqual(['a', 'b']);
      expect(rvOf(list.json)).toBeGreaterThanOrEqual(lastRevision);
      // A continue token from before the restart continues its list (the signing key is kept).
      const next = await api.request('GET', `${cms}?limit=1&continue=${encodeURIComponent(continueToken)}`);
      expect(next.status, next.text).toBe(200);
      expect(
        (next.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name),
      ).toEqual(['b']);
      const c = await api.request('POST', cms, { metadata: { name: 'c' } });
      expect(c.status).toBe(201);
      expect(rvOf(c.json)).toBeGreaterThan(lastRevision);
      // Server-side apply still knows who owns what: a conflicting apply by another manager is refused.
      const conflict = await applyB(api, 'third', { owned: 'no' });
      expect(conflict.status).toBe(409);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  }, 90_000);

  it('third run: a watch from a pre-restart resourceVersion replays every later write in order, then goes live', async () => {
    const api = await startCliServer(args, kubeconfig);
    try {
      const w = await api.watch(`${cms}?watch=1&resourceVersion=${watchFrom}`);
      expect(w.status).toBe(200);
      const d = await api.request('POST', cms, { metadata: { name: 'd' } });
      await until('the live event', async () => w.events.some((e) => e.object.metadata?.name === 'd'));
      w.close();
      const rvs = w.events.map((e) => Number(e.object.metadata?.resourceVersion));
      // Every configmap write after watchFrom: the pre-restart ones, the delete of `gone`, `c` of
      // the second run, then `d`; strictly increasing, none missing.
      expect(w.events.every((e) => e.type !== 'ERROR')).toBe(true);
      expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
      for (const rv of cmWritesAfter) expect(rvs).toContain(rv);
      expect(w.events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual([
        'ADDED b',
        'MODIFIED a',
        'ADDED gone',
        'DELETED gone',
        'MODIFIED b',
        'ADDED c',
        'ADDED d',
      ]);
      expect(rvs.at(-1)).toBe(rvOf(d.json));
    } finally {
      expect(await api.stop()).toBe(0);
    }
  }, 90_000);
});

describe('a restart after compaction', () => {
  const dataDir = join(root, 'compacting');
  const kubeconfig = join(root, 'compacting.kubeconfig');
  // A one-second watch window and compaction interval: history older than ~2 s is compacted away.
  const args = ['--data-dir', dataDir, '--watch-window', '1s', '--compaction-interval', '1s'];
  const cmsDefault = '/api/v1/namespaces/default/configmaps';

  it('a watch from a compacted pre-restart resourceVersion gets 410 (Expired); from the compaction point it continues', async () => {
    let old = 0;
    /** resourceVersions of every configmap write of the first run, in order. */
    const written: number[] = [];
    const write = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
      const r = await first.request(method, path, body);
      expect([200, 201]).toContain(r.status);
      written.push(rvOf(r.json));
      return rvOf(r.json);
    };
    const first = await startCliServer(args, kubeconfig);
    try {
      old = await write('POST', cmsDefault, { metadata: { name: 'a' } });
      // Writes keep coming until a watch from `old` is refused with 410.
      await until('a 410 for the first write', async () => {
        await write('PUT', `${cmsDefault}/a`, { metadata: { name: 'a' }, data: { t: String(Date.now()) } });
        const w = await first.watch(`${cmsDefault}?watch=1&resourceVersion=${old}`);
        let expired = w.status === 410;
        if (!expired) {
          await until('an event', async () => w.events.length > 0);
          expired = w.events[0]?.type === 'ERROR' && w.events[0].object.code === 410;
        }
        w.close();
        return expired;
      });
      // The watch cache's window alone may answer that 410; more compaction ticks make sure the store
      // itself compacted past `old` (checked on the file below), so a restart cannot replay it either.
      for (let i = 0; i < 40; i++) {
        await write('PUT', `${cmsDefault}/a`, { metadata: { name: 'a' }, data: { t: String(i) } });
        await new Promise((r) => setTimeout(r, 100));
      }
      await write('POST', cmsDefault, { metadata: { name: 'b' } });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const file = createSqliteStore({ path: join(dataDir, 'orchard.sqlite') });
    const compacted = await file.compactedRevision();
    await file.close();
    expect(compacted).toBeGreaterThan(old);
    // No compaction in the second run (interval 0): what the file holds stays servable.
    const second = await startCliServer(
      ['--data-dir', dataDir, '--watch-window', '1s', '--compaction-interval', '0'],
      kubeconfig,
    );
    try {
      const gone = await second.watch(`${cmsDefault}?watch=1&resourceVersion=${old}`);
      if (gone.status === 200) {
        await until('the ERROR event', async () => gone.events.length > 0);
        expect(gone.events[0]).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
      } else {
        expect(gone.status).toBe(410);
      }
      gone.close();
      // From the compaction point: every later write of the first run, in order, none missing.
      const expected = written.filter((rv) => rv > compacted);
      expect(expected.length).toBeGreaterThan(0);
      const live = await second.watch(`${cmsDefault}?watch=1&resourceVersion=${compacted}`);
      expect(live.status).toBe(200);
      await until('the replayed writes', async () => live.events.length >= expected.length);
      expect(live.events.map((e) => Number(e.object.metadata?.resourceVersion))).toEqual(expected);
      live.close();
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 90_000);
});

describe.skipIf(!kubectlAvailable())('kubectl across a restart (kubernetes flavor, SQLite)', () => {
  it('the kubeconfig written by the first run drives the second, which shows the same objects', async () => {
    const dataDir = join(root, 'kubectl');
    const kubeconfig = join(root, 'kubectl.kubeconfig');
    const saved = join(root, 'kubectl-first-run.kubeconfig');
    // A fixed port for both runs, so the first run's kubeconfig is used unchanged.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const args = ['--flavor', 'kubernetes', '--data-dir', dataDir, '--port', String(port)];
    const manifest = join(root, 'cm.yaml');
    writeFileSync(
      manifest,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\ndata:\n  a: "1"\n',
    );
    const first = await startCliServer(args, kubeconfig);
    let before: string;
    try {
      const k = (...a: string[]) => kubectl(a, { kubeconfig });
      expect((await k('apply', '--server-side', '-f', manifest)).stdout).toContain('serverside-applied');
      expect((await k('create', 'secret', 'generic', 's', '--from-literal=p=q')).code).toBe(0);
      const got = await k('get', 'configmap/applied', 'secret/s', '-o', 'json', '--show-managed-fields');
      expect(got.code).toBe(0);
      before = got.stdout;
    } finally {
      expect(await first.stop()).toBe(0);
    }
    copyFileSync(kubeconfig, saved);
    const second = await startCliServer(args, kubeconfig);
    try {
      const k = (...a: string[]) => kubectl(a, { kubeconfig: saved });
      const got = await k('get', 'configmap/applied', 'secret/s', '-o', 'json', '--show-managed-fields');
      expect(got.stderr).toBe('');
      expect(JSON.parse(got.stdout)).toEqual(JSON.parse(before));
      // Apply again with a change: the field manager still owns its field, so no conflict.
      writeFileSync(
        manifest,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\ndata:\n  a: "2"\n',
      );
      expect((await k('apply', '--server-side', '-f', manifest)).code).toBe(0);
      expect((await k('get', 'configmap/applied', '-o', 'jsonpath={.data.a}')).stdout).toBe('2');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 90_000);
});
