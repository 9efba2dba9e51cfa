import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FlavorName, flavorByName } from '@orchard/meta';
import { startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditPolicy } from '../src/audit/policy.js';
import { createApiServer } from '../src/server.js';
import { parseRuntimeConfig } from '../src/versions/runtime-config.js';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';

/**
 * API versions (issue 16 items 1–4; spec doc 1 §6 item 2, §9): stability defaults, `runtimeConfig`
 * and `emulatedRelease` deciding what discovery, OpenAPI and the routes serve; deprecation warnings,
 * audit annotations and the gauge; HorizontalPodAutoscaler and CronJob at several versions with
 * lossless conversion and managedFields kept right across versions.
 */
type Obj = Record<string, any>;
const hpaPath = (v: string, name = '') =>
  `/apis/autoscaling/${v}/namespaces/default/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const hpaV2 = (name: string, extra: Obj = {}) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 4,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
      },
    ],
    ...extra,
  },
});
const strip = (o: Obj) => {
  const { apiVersion: _a, ...rest } = o;
  const { managedFields: _m, ...meta } = rest.metadata;
  return { ...rest, metadata: meta };
};

describe.each(['orch', 'kubernetes'] as FlavorName[])('API versions under the %s flavor', (flavorName) => {
  const flavor = flavorByName(flavorName);
  /** A server-side apply of `body` to the HPA `name` at `version` by `manager`. */
  const applyHpa = (api: TestServer, version: string, manager: string, body: Obj, force = false) =>
    api.request(
      'PATCH',
      `${hpaPath(version, body.metadata.name)}?fieldManager=${manager}${force ? '&force=true' : ''}`,
      {
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify(body),
      },
    );

  describe('defaults at 1.32', () => {
    let api: TestServer;
    beforeAll(async () => {
      api = await startTestServer({ flavor: flavorName, storage: 'memory' });
    });
    afterAll(async () => {
      await api.stop();
    });

    it('serves HPA at autoscaling/v2 and v1 and CronJob at batch/v1 only; removed versions answer 404', async () => {
      const group = (await api.request('GET', '/apis/autoscaling')).json as Obj;
      expect(group.versions).toEqual([
        { groupVersion: 'autoscaling/v2', version: 'v2' },
        { groupVersion: 'autoscaling/v1', version: 'v1' },
      ]);
      expect(group.preferredVersion.version).toBe('v2');
      const batch = (await api.request('GET', '/apis/batch')).json as Obj;
      expect(batch.versions.map((v: Obj) => v.version)).toEqual(['v1']);
      for (const path of [
        hpaPath('v2beta2'),
        hpaPath('v2beta1'),
        '/apis/batch/v1beta1/namespaces/default/cronjobs',
        '/apis/autoscaling/v2beta2',
        '/apis/batch/v1beta1',
      ])
        expect((await api.request('GET', path)).status, path).toBe(404);
      const list = await api.request('GET', hpaPath('v2'));
      expect(list.status).toBe(200);
      expect(list.headers.warning).toBeUndefined();
    });

    it('leaves removed versions out of aggregated discovery and OpenAPI', async () => {
      const agg = await api.request('GET', '/apis', {
        headers: {
          accept: `application/json;g=${flavor.group('apidiscovery')};v=v2;as=APIGroupDiscoveryList`,
        },
      });
      const autoscaling = (agg.json as Obj).items.find((g: Obj) => g.metadata.name === 'autoscaling');
      expect(autoscaling.versions.map((v: Obj) => v.version)).toEqual(['v2', 'v1']);
      const index = (await api.request('GET', '/openapi/v3')).json as Obj;
      expect(Object.keys(index.paths)).toContain('apis/autoscaling/v2');
      expect(Object.keys(index.paths)).not.toContain('apis/autoscaling/v2beta2');
      expect(Object.keys(index.paths)).not.toContain('apis/batch/v1beta1');
      expect((await api.request('GET', '/openapi/v3/apis/autoscaling/v2beta2')).status).toBe(404);
    });
  });

  describe('runtimeConfig switches versions and resources on and off (§9.2)', () => {
    let api: TestServer;
    let dir: string;
    let log: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'orchard-versions-'));
      log = join(dir, 'audit.log');
      const policy = `apiVersion: audit.${flavor.domain}/v1\nkind: Policy\nrules:\n  - level: Metadata\n`;
      api = await startTestServer({
        flavor: flavorName,
        storage: 'memory',
        server: {
          runtimeConfig: parseRuntimeConfig('autoscaling/v2beta2,batch/v1beta1=true,batch/v1/jobs=false'),
          audit: { policy: parseAuditPolicy(policy, 'policy.yaml', flavor), logPath: log },
        },
      });
    });
    afterAll(async () => {
      await api.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it('a version switched on appears in discovery and OpenAPI; a resource switched off vanishes', async () => {
      const group = (await api.request('GET', '/apis/autoscaling')).json as Obj;
      expect(group.versions.map((v: Obj) => v.version)).toEqual(['v2', 'v1', 'v2beta2']);
      expect(group.preferredVersion.version).toBe('v2');
      const v1 = (await api.request('GET', '/apis/batch/v1')).json as Obj;
      expect(v1.resources.map((r: Obj) => r.name)).toEqual(['cronjobs', 'cronjobs/status']);
      expect((await api.request('GET', '/apis/batch/v1/namespaces/default/jobs')).status).toBe(404);
      const index = (await api.request('GET', '/openapi/v3')).json as Obj;
      expect(Object.keys(index.paths)).toEqual(
        expect.arrayContaining(['apis/autoscaling/v2beta2', 'apis/batch/v1beta1']),
      );
      const doc = (await api.request('GET', '/openapi/v3/apis/batch/v1')).json as Obj;
      expect(Object.keys(doc.paths).some((p) => p.includes('/jobs'))).toBe(false);
    });

    it('an HPA written as v2beta2 reads back identically as v2 and vice versa, with the deprecation warning', async () => {
      const created = await api.request('POST', hpaPath('v2beta2'), {
        body: { ...hpaV2('a'), apiVersion: 'autoscaling/v2beta2' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.headers.warning).toBe(
        '299 - "autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler"',
      );
      expect((created.json as Obj).apiVersion).toBe('autoscaling/v2beta2');
      const asV2 = await api.request('GET', hpaPath('v2', 'a'));
      expect(asV2.headers.warning).toBeUndefined();
      expect((asV2.json as Obj).apiVersion).toBe('autoscaling/v2');
      expect(strip(asV2.json as Obj)).toEqual(strip(created.json as Obj));

      const b = await api.request('POST', hpaPath('v2'), { body: hpaV2('b') });
      expect(b.status, b.text).toBe(201);
      const asBeta = await api.request('GET', hpaPath('v2beta2', 'b'));
      expect((asBeta.json as Obj).apiVersion).toBe('autoscaling/v2beta2');
      expect(strip(asBeta.json as Obj)).toEqual(strip(b.json as Obj));
      // Lists and stored objects: the list at v2beta2 holds v2beta2 items; storage holds v2.
      const list = (await api.request('GET', hpaPath('v2beta2'))).json as Obj;
      expect(list.items.map((i: Obj) => i.apiVersion)).toEqual([
        'autoscaling/v2beta2',
        'autoscaling/v2beta2',
      ]);
      const stored = await api.server.objects.get(
        api.server.objects.key(
          { group: 'autoscaling', resource: 'horizontalpodautoscalers', namespace: 'default' },
          'a',
        ),
      );
      expect(stored.object?.apiVersion).toBe('autoscaling/v2');
    });

    it('marks deprecated calls in the audit log and the gauge', async () => {
      const r = await api.request('GET', '/apis/batch/v1beta1/namespaces/default/cronjobs');
      expect(r.status).toBe(200);
      expect(r.headers.warning).toBe(
        '299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"',
      );
      const id = r.headers['audit-id'] as string;
      const event = await waitFor('the audit event of the deprecated call', async () => {
        const text = await readFile(log, 'utf8').catch(() => '');
        return text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Obj)
          .find((e) => e.auditID === id && e.stage === 'ResponseComplete');
      });
      expect(event.annotations).toMatchObject({
        [`${flavor.domain}/deprecated`]: 'true',
        [`${flavor.domain}/removed-release`]: '1.25',
      });
      const metrics = parsePrometheusText((await api.request('GET', '/metrics')).text);
      expect(
        sampleValue(metrics, 'apiserver_requested_deprecated_apis', {
          group: 'batch',
          version: 'v1beta1',
          resource: 'cronjobs',
          subresource: '',
          removed_release: '1.25',
        }),
      ).toBe(1);
      // A watch and an error answer carry the warning too.
      const missing = await api.request('GET', '/apis/batch/v1beta1/namespaces/default/cronjobs/none');
      expect(missing.status).toBe(404);
      expect(missing.headers.warning).toContain('batch/v1beta1 CronJob is deprecated');
    });

    it('a CronJob created as v1beta1 is stored as v1 and reads back at both versions', async () => {
      const body = {
        apiVersion: 'batch/v1beta1',
        kind: 'CronJob',
        metadata: { name: 'nightly' },
        spec: {
          schedule: '0 1 * * *',
          jobTemplate: {
            spec: {
              template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
            },
          },
        },
      };
      const r = await api.request('POST', '/apis/batch/v1beta1/namespaces/default/cronjobs', { body });
      expect(r.status, r.text).toBe(201);
      const v1 = (await api.request('GET', '/apis/batch/v1/namespaces/default/cronjobs/nightly')).json as Obj;
      expect(v1.apiVersion).toBe('batch/v1');
      expect(strip(v1)).toEqual(strip(r.json as Obj));
      expect(v1.metadata.managedFields[0].apiVersion).toBe('batch/v1beta1');
    });

    it('server-side apply through both versions keeps managedFields right', async () => {
      const a = await applyHpa(api, 'v2beta2', 'beta-owner', {
        ...hpaV2('ssa'),
        apiVersion: 'autoscaling/v2beta2',
      });
      expect(a.status, a.text).toBe(201);
      // Another manager changing maxReplicas through v2 conflicts with the v2beta2 owner.
      const maxNine = {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'ssa' },
        spec: { maxReplicas: 9 },
      };
      const conflict = await applyHpa(api, 'v2', 'v2-owner', maxNine);
      expect(conflict.status, conflict.text).toBe(409);
      expect((conflict.json as Obj).details.causes).toEqual([
        { reason: 'FieldManagerConflict', message: 'conflict with "beta-owner"', field: '.spec.maxReplicas' },
      ]);
      const forced = await applyHpa(api, 'v2', 'v2-owner', maxNine, true);
      expect(forced.status, forced.text).toBe(200);
      const managed = (forced.json as Obj).metadata.managedFields as Obj[];
      expect(managed.map((m) => [m.manager, m.apiVersion])).toEqual([
        ['beta-owner', 'autoscaling/v2beta2'],
        ['v2-owner', 'autoscaling/v2'],
      ]);
      expect(managed[0]?.fieldsV1['f:spec']['f:maxReplicas']).toBeUndefined();
      expect(managed[1]?.fieldsV1['f:spec']['f:maxReplicas']).toEqual({});
    });
  });

  describe('emulatedRelease 1.24 (§9.3–9.4)', () => {
    let api: TestServer;
    beforeAll(async () => {
      api = await startTestServer({
        flavor: flavorName,
        storage: 'memory',
        server: { emulatedRelease: '1.24' },
      });
    });
    afterAll(async () => {
      await api.stop();
    });

    it('serves the betas introduced before 1.22 that 1.24 still had, with their warnings', async () => {
      const group = (await api.request('GET', '/apis/autoscaling')).json as Obj;
      expect(group.versions.map((v: Obj) => v.version)).toEqual(['v2', 'v1', 'v2beta2', 'v2beta1']);
      expect(
        ((await api.request('GET', '/apis/batch')).json as Obj).versions.map((v: Obj) => v.version),
      ).toEqual(['v1', 'v1beta1']);
      const r = await api.request('GET', hpaPath('v2beta1'));
      expect(r.headers.warning).toBe(
        '299 - "autoscaling/v2beta1 HorizontalPodAutoscaler is deprecated in v1.22+, unavailable in v1.25+; use autoscaling/v2 HorizontalPodAutoscaler"',
      );
    });

    it('renames targetAverageUtilization to target.averageUtilization between v2beta1 and v2, losslessly', async () => {
      const old = {
        apiVersion: 'autoscaling/v2beta1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'old' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
          maxReplicas: 3,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', targetAverageUtilization: 50 } }],
        },
      };
      const created = await api.request('POST', hpaPath('v2beta1'), { body: old });
      expect(created.status, created.text).toBe(201);
      expect((created.json as Obj).spec.metrics).toEqual(old.spec.metrics);
      const v2 = (await api.request('GET', hpaPath('v2', 'old'))).json as Obj;
      expect(v2.spec.metrics).toEqual([
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ]);
      // v2-only behavior survives a v2beta1 update (it travels in an annotation).
      const withBehavior = await api.request('POST', hpaPath('v2'), {
        body: hpaV2('new', { behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }),
      });
      expect(withBehavior.status, withBehavior.text).toBe(201);
      const beta = (await api.request('GET', hpaPath('v2beta1', 'new'))).json as Obj;
      expect(beta.spec.behavior).toBeUndefined();
      beta.spec.maxReplicas = 8;
      const put = await api.request('PUT', hpaPath('v2beta1', 'new'), { body: beta });
      expect(put.status, put.text).toBe(200);
      const back = (await api.request('GET', hpaPath('v2', 'new'))).json as Obj;
      expect(back.spec.behavior).toEqual({ scaleDown: { stabilizationWindowSeconds: 60 } });
      expect(back.spec.maxReplicas).toBe(8);
      expect(back.metadata.annotations).toBeUndefined();
    });

    describe('managedFields compare at each manager’s version', () => {
      it('a v2 apply changing spec.behavior conflicts with the v2beta1 owner of the behavior annotation', async () => {
        const annotation = `autoscaling.alpha.${flavorName === 'kubernetes' ? 'kubernetes.io' : 'orch.io'}/behavior`;
        const beta1 = await applyHpa(api, 'v2beta1', 'beta1-owner', {
          apiVersion: 'autoscaling/v2beta1',
          kind: 'HorizontalPodAutoscaler',
          metadata: {
            name: 'own',
            annotations: { [annotation]: '{"scaleDown":{"stabilizationWindowSeconds":60}}' },
          },
          spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
        });
        expect(beta1.status, beta1.text).toBe(201);
        const v2 = (await api.request('GET', hpaPath('v2', 'own'))).json as Obj;
        expect(v2.spec.behavior).toEqual({ scaleDown: { stabilizationWindowSeconds: 60 } });
        // At v2 the field is spec.behavior; only converting to v2beta1 shows it is the owner's annotation.
        const conflict = await applyHpa(api, 'v2', 'v2-writer', {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'own' },
          spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 120 } } },
        });
        expect(conflict.status, conflict.text).toBe(409);
        const causes = (conflict.json as Obj).details.causes as Obj[];
        expect(causes.map((c) => c.message)).toContain('conflict with "beta1-owner"');
        expect(causes.some((c) => String(c.field).endsWith('/behavior'))).toBe(true);
      });
    });
  });

  it('an unknown runtime-config key or release fails at start, naming it', () => {
    expect(() =>
      createApiServer({ flavor, runtimeConfig: parseRuntimeConfig('widgets.example/v1=true') }),
    ).toThrow(
      'invalid key widgets.example/v1: group version widgets.example/v1 is not served by this server',
    );
    expect(() => createApiServer({ flavor, emulatedRelease: '1.40' })).toThrow(
      'emulated release 1.40 is not between [1.16, 1.32]',
    );
  });
});
