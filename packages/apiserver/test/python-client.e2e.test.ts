import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installCrd, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames } from './helpers/flavors.js';
import { gadgetCrd } from './helpers/widget-crd.js';

/**
 * The Python client from Debian (`python3-kubernetes`, 22.6) against the reference server, using only
 * the kubeconfig the server wrote (HTTPS, admin client certificate). Each script under ./python/ does
 * its calls and prints one JSON document this suite asserts: load_kube_config and CoreV1Api CRUD with
 * ApiException codes (crud.py), `watch.Watch().stream` (watch_stream.py; a compacted
 * resourceVersion → ApiException 410 in watch_expired.py), and the DynamicClient on a
 * CRD with server-side apply (dynamic.py).
 */

const scripts = fileURLToPath(new URL('./python/', import.meta.url));

/** The first interpreter that imports `kubernetes`: ORCHARD_PYTHON, Debian's /usr/bin/python3, python3. */
function findPython(): string | undefined {
  const candidates = [process.env.ORCHARD_PYTHON, '/usr/bin/python3', 'python3'].filter(
    (c): c is string => c !== undefined && c !== '',
  );
  return candidates.find(
    (c) => spawnSync(c, ['-c', 'import kubernetes'], { stdio: 'ignore', timeout: 20_000 }).status === 0,
  );
}
const python = findPython();

/** Runs one script with the kubeconfig and namespace; resolves with its JSON output. */
function runScript(
  name: string,
  kubeconfig: string,
  ns: string,
  ...extra: string[]
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      python as string,
      // -B: no __pycache__ in the checkout.
      ['-B', `${scripts}${name}`, kubeconfig, ns, ...extra],
      { cwd: scripts, timeout: 60_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scripts } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${name} failed (${error.message}):\n${stderr}\n${stdout}`));
        else resolve(JSON.parse(stdout) as Record<string, unknown>);
      },
    );
  });
}

// CI installs python3-kubernetes (.ci/run); elsewhere the suite says why it does not run.
describe.skipIf(python === undefined)(
  'python3-kubernetes (Debian) — skipped when no python3 imports `kubernetes` (apt-get install python3-kubernetes)',
  () => {
    describe.each(flavorNames)('%s flavor', (flavor) => {
      let api: TestServer;
      const ns = 'py';

      beforeAll(async () => {
        api = await startTestServer({ flavor });
        await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
      });
      afterAll(async () => {
        await api.stop();
      });

      it('load_kube_config, CoreV1Api CRUD on ConfigMaps, and ApiException codes 404, 409, 422', async () => {
        const out = await runScript('crud.py', api.kubeconfigPath, ns);
        expect(out.created).toMatchObject({ name: 'a', timestamp_type: 'datetime' });
        expect((out.created as { uid: string }).uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(out.read).toEqual({ k: 'v' });
        expect(out.listed).toEqual(['a']);
        expect(out.list_rv).toMatch(/^\d+$/);
        expect(out.all_names).toEqual(['a', 'b']);
        expect(out.replaced).toEqual({ k: 'w' });
        expect(out.patched).toEqual({ data: { k: 'w', extra: '1' }, labels: { app: 'py', tier: 'web' } });
        expect(out['404']).toMatchObject({
          status: 404,
          reason: 'Not Found',
          body: { kind: 'Status', reason: 'NotFound', message: 'configmaps "nope" not found' },
        });
        expect(out['409']).toMatchObject({
          status: 409,
          body: { reason: 'AlreadyExists', message: 'configmaps "a" already exists' },
        });
        expect(out['409_stale']).toMatchObject({ status: 409, body: { reason: 'Conflict' } });
        expect(out['422']).toMatchObject({
          status: 422,
          body: { reason: 'Invalid', details: { kind: 'ConfigMap', name: 'Bad_Name' } },
        });
        expect(out.delete_kind).toBe('V1Status');
        expect(out.after_delete).toMatchObject({ status: 404 });
        expect(out.namespaces).toEqual(expect.arrayContaining(['default', ns]));
        expect(out.version).toMatch(/^v1\.\d+\.\d+/);
      });

      it('watch.Watch().stream replays changes after a resourceVersion, stops, and ends at timeoutSeconds', async () => {
        const out = await runScript('watch_stream.py', api.kubeconfigPath, ns);
        expect(out.events).toEqual([
          ['ADDED', 'V1ConfigMap', 'w', '1'],
          ['MODIFIED', 'V1ConfigMap', 'w', '2'],
          ['DELETED', 'V1ConfigMap', 'w', '2'],
        ]);
        expect(out.resource_version).toMatch(/^\d+$/);
        expect(out.idle).toEqual([]);
      });

      it('watch.Watch().stream from a compacted resourceVersion raises ApiException 410', async () => {
        const before = (await api.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).json as {
          metadata: { resourceVersion: string };
        };
        for (const name of ['x1', 'x2'])
          await api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } });
        // Compact the store and restart the watch caches: the old version is gone, as after etcd compaction.
        await api.server.storage.compact(await api.server.storage.currentRevision());
        await api.server.watchCaches.restartAll();
        const out = await runScript(
          'watch_expired.py',
          api.kubeconfigPath,
          ns,
          before.metadata.resourceVersion,
        );
        expect(out.events).toEqual([]);
        expect(out.error).toMatchObject({ status: 410 });
        expect((out.error as { text: string }).text).toMatch(/too old resource version/);
      });

      it('the DynamicClient on a CRD, server-side apply with conflicts and force', async () => {
        await installCrd(api, gadgetCrd(flavor));
        const out = await runScript('dynamic.py', api.kubeconfigPath, ns);
        expect(out.resource).toEqual({ name: 'gadgets', namespaced: true, kind: 'Gadget' });
        expect(out.created).toEqual({ color: 'red', size: 1 });
        expect(out.got).toBe(true);
        expect(out.list).toEqual({ kind: 'GadgetList', names: ['g'] });
        expect(out.patched).toEqual({ color: 'red', size: 4 });
        // Strategic merge patch (the DynamicClient's default) is 415 for custom resources, as upstream.
        expect(out.strategic).toMatchObject({ status: 415, body: { reason: 'UnsupportedMediaType' } });
        expect(out.status).toEqual({ ready: true });
        expect(out.applied).toEqual({ spec: { color: 'blue', size: 4 }, managers: expect.any(Array) });
        expect((out.applied as { managers: string[] }).managers).toContain('py-tool');
        expect(out.invalid).toMatchObject({
          status: 422,
          body: { reason: 'Invalid', details: { kind: 'Gadget', name: 'h' } },
        });
        expect(out.deleted).toBe(404);
        expect(out.ssa_created).toEqual([['tool-a', 'Apply']]);
        expect(out.ssa_conflict).toMatchObject({
          status: 409,
          body: {
            reason: 'Conflict',
            details: {
              causes: [expect.objectContaining({ reason: 'FieldManagerConflict', field: '.data.color' })],
            },
          },
        });
        expect(out.ssa_forced).toEqual({ color: 'blue', size: 'L' });
        expect(out.ssa_plain).toEqual(['ssa2', { a: '1' }]);
      });
    });
  },
);
