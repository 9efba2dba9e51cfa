import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FlavorName, flavorByName } from '@orchard/meta';
import type { Store } from '@orchard/store';
import { createSqliteStore } from '@orchard/store-sqlite';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServerOptions } from '../src/options.js';
import { parseRuntimeConfig } from '../src/versions/runtime-config.js';

/**
 * Versions over a server's life on SQLite (issue 16; spec doc 1 §9.3 rules 4b, 7, 9 and §9.4
 * "migration aids"): objects persisted at an older version — written through a beta that is later
 * switched off, or stored at an old storage version by an older release — stay decodable and
 * reachable through the replacement after a restart that changes what is served; a rollback to the
 * earlier release reads them again; `--runtime-config <group>/<version>=false` rehearses a removal
 * and undoing it brings the version back. A GA gate set to its locked value keeps its feature.
 */
type Obj = Record<string, any>;
const hpaPath = (v: string, name = '') =>
  `/apis/autoscaling/${v}/namespaces/default/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const cronPath = (v: string, name = '') =>
  `/apis/batch/${v}/namespaces/default/cronjobs${name ? `/${name}` : ''}`;

const v2beta1Hpa = (name: string) => ({
  apiVersion: 'autoscaling/v2beta1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 3,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 50 } }],
  },
});
const cronJob = (apiVersion: string, name: string) => ({
  apiVersion,
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule: '0 1 * * *',
    jobTemplate: {
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    },
  },
});
const v2Metrics = [
  { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
];

describe.each(['orch', 'kubernetes'] as FlavorName[])(
  'API versions across restarts (%s flavor)',
  (flavorName) => {
    const flavor = flavorByName(flavorName);
    let dir: string;
    let store: Store | undefined;
    let api: TestServer | undefined;

    /** Stops the running server and closes its store, then starts one on the same database. */
    async function restart(server: Partial<ApiServerOptions>): Promise<TestServer> {
      await api?.stop();
      await store?.close();
      store = createSqliteStore({ path: join(dir, 'state.db') });
      api = await startTestServer({ flavor: flavorName, server: { ...server, store } });
      return api;
    }

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'orchard-versions-life-'));
    });
    afterAll(async () => {
      await api?.stop();
      await store?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('objects written through betas stay readable when the betas are gone, and after a rollback (rule 4b)', async () => {
      let s = await restart({ emulatedRelease: '1.24' });
      expect((await s.request('POST', hpaPath('v2beta1'), { body: v2beta1Hpa('beta') })).status).toBe(201);
      expect(
        (await s.request('POST', cronPath('v1beta1'), { body: cronJob('batch/v1beta1', 'nightly') })).status,
      ).toBe(201);
      // What an older release stored at its own storage version (v2beta1) before v2 existed.
      const key = s.server.objects.key(
        { group: 'autoscaling', resource: 'horizontalpodautoscalers', namespace: 'default' },
        'legacy',
      );
      await s.server.objects.create(key, {
        ...v2beta1Hpa('legacy'),
        metadata: {
          name: 'legacy',
          namespace: 'default',
          uid: '6c1b7a52-0000-4000-8000-000000000001',
          creationTimestamp: '2021-01-01T00:00:00Z',
        },
      });

      // Upgrade: 1.32 serves neither beta; every object is reachable through the replacement.
      s = await restart({});
      expect((await s.request('GET', hpaPath('v2beta1', 'beta'))).status).toBe(404);
      expect((await s.request('GET', cronPath('v1beta1', 'nightly'))).status).toBe(404);
      for (const name of ['beta', 'legacy']) {
        const r = await s.request('GET', hpaPath('v2', name));
        expect(r.status, r.text).toBe(200);
        expect((r.json as Obj).apiVersion).toBe('autoscaling/v2');
        expect((r.json as Obj).spec.metrics).toEqual(v2Metrics);
      }
      const list = (await s.request('GET', hpaPath('v2'))).json as Obj;
      expect(list.items.map((i: Obj) => [i.metadata.name, i.apiVersion])).toEqual([
        ['beta', 'autoscaling/v2'],
        ['legacy', 'autoscaling/v2'],
      ]);
      const cron = await s.request('GET', cronPath('v1', 'nightly'));
      expect(cron.status, cron.text).toBe(200);
      expect((cron.json as Obj).spec.schedule).toBe('0 1 * * *');
      // A write through the served version moves the old object to the storage version.
      const legacy = (await s.request('GET', hpaPath('v2', 'legacy'))).json as Obj;
      legacy.spec.maxReplicas = 6;
      expect((await s.request('PUT', hpaPath('v2', 'legacy'), { body: legacy })).status).toBe(200);
      const stored = await s.server.objects.get(key);
      expect(stored.object?.apiVersion).toBe('autoscaling/v2');

      // Rollback to 1.24: the betas read everything again, the upgraded write included.
      s = await restart({ emulatedRelease: '1.24' });
      const back = await s.request('GET', hpaPath('v2beta1', 'legacy'));
      expect(back.status, back.text).toBe(200);
      expect((back.json as Obj).spec.maxReplicas).toBe(6);
      expect((back.json as Obj).spec.metrics).toEqual(v2beta1Hpa('x').spec.metrics);
      expect((await s.request('GET', cronPath('v1beta1', 'nightly'))).status).toBe(200);
    });

    it('rehearses a removal with --runtime-config <group>/<version>=false, and undoes it (§9.4 migration aids)', async () => {
      let s = await restart({
        emulatedRelease: '1.24',
        runtimeConfig: parseRuntimeConfig('batch/v1beta1=false,autoscaling/v2beta1=false'),
      });
      const batch = (await s.request('GET', '/apis/batch')).json as Obj;
      expect(batch.versions.map((v: Obj) => v.version)).toEqual(['v1']);
      const autoscaling = (await s.request('GET', '/apis/autoscaling')).json as Obj;
      expect(autoscaling.versions.map((v: Obj) => v.version)).toEqual(['v2', 'v1', 'v2beta2']);
      const gone = await s.request('GET', cronPath('v1beta1', 'nightly'));
      expect(gone.status).toBe(404);
      expect((await s.request('GET', hpaPath('v2beta1'))).status).toBe(404);
      // What callers of the removed version would have read is there through the replacement.
      expect((await s.request('GET', cronPath('v1', 'nightly'))).status).toBe(200);
      // v2beta2 is still served at 1.24 and still warns: the deprecation stays visible.
      const beta2 = await s.request('GET', hpaPath('v2beta2', 'beta'));
      expect(beta2.status).toBe(200);
      expect(beta2.headers.warning).toContain(
        'autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+',
      );
      // Undo the rehearsal: a restart without the keys serves the betas again.
      s = await restart({ emulatedRelease: '1.24' });
      expect((await s.request('GET', cronPath('v1beta1', 'nightly'))).status).toBe(200);
    });

    it('a GA gate set to its locked value keeps its feature working (rule 9)', async () => {
      const s = await restart({ featureGates: { APISelfSubjectReview: true } });
      const r = await s.request('POST', `/apis/${flavor.group('authentication')}/v1/selfsubjectreviews`, {
        body: { apiVersion: `${flavor.group('authentication')}/v1`, kind: 'SelfSubjectReview' },
      });
      expect(r.status, r.text).toBe(201);
      expect((r.json as Obj).status.userInfo.username).toBeTruthy();
    });
  },
);
