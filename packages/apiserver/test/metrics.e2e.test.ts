import type { FlavorName } from '@orchard/meta';
import { kubectl, kubectlAvailable, openWatch, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestDurationBuckets } from '../src/metrics/server-metrics.js';
import { createApiServer } from '../src/server.js';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';

/**
 * `/metrics` (issue 16 item 6): Prometheus text format read back with a parser, request counters
 * and histograms with upstream's labels and buckets, storage and watch gauges, and who may read it.
 */
let api: TestServer;

async function scrape() {
  const r = await api.request('GET', '/metrics');
  expect(r.status, r.text).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(r.text);
}

const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data: { k: 'v' },
});
const base = {
  dry_run: '',
  group: '',
  version: 'v1',
  resource: 'configmaps',
  subresource: '',
  component: 'apiserver',
};

describe.each(['orch', 'kubernetes'] as FlavorName[])('/metrics (%s flavor)', (flavorName) => {
  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName, storage: 'memory' });
  });
  afterAll(async () => {
    await api.stop();
  });
  it('counts requests by upstream verb, scope and code, and the counters move under load', async () => {
    const before = await scrape();
    const get = { ...base, verb: 'GET', scope: 'resource', code: '200' };
    const startGets = sampleValue(before, 'apiserver_request_total', get) ?? 0;
    expect(
      (await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('m1') })).status,
    ).toBe(201);
    for (let i = 0; i < 25; i++)
      expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/m1')).status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/nope')).status).toBe(404);
    const apply = await api.request('PATCH', '/api/v1/namespaces/default/configmaps/m2?fieldManager=t', {
      body: JSON.stringify(cm('m2')),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(apply.status, apply.text).toBe(201);
    const dry = await api.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: cm('m3'),
    });
    expect(dry.status).toBe(201);
    const w = await api.request('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
    expect(w.status).toBe(200);

    const after = await scrape();
    const total = after.get('apiserver_request_total');
    expect(total?.type).toBe('counter');
    expect(total?.help).toMatch(/^\[STABLE\] Counter of apiserver requests/);
    expect(sampleValue(after, 'apiserver_request_total', get)).toBe(startGets + 25);
    expect(
      sampleValue(after, 'apiserver_request_total', {
        ...base,
        verb: 'POST',
        scope: 'resource',
        code: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(after, 'apiserver_request_total', {
        ...base,
        verb: 'LIST',
        scope: 'namespace',
        code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(after, 'apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(after, 'apiserver_request_total', {
        ...base,
        verb: 'APPLY',
        scope: 'resource',
        code: '201',
      }),
    ).toBe(1);
    expect(
      sampleValue(after, 'apiserver_request_total', {
        ...base,
        dry_run: 'All',
        verb: 'POST',
        scope: 'resource',
        code: '201',
      }),
    ).toBe(1);
    expect(
      sampleValue(after, 'apiserver_request_total', {
        ...base,
        verb: 'WATCH',
        scope: 'namespace',
        code: '200',
      }),
    ).toBe(1);

    // The histogram: upstream's buckets, every label but code, watches left out.
    const hist = after.get('apiserver_request_duration_seconds');
    expect(hist?.type).toBe('histogram');
    const { code: _code, ...getLabels } = get;
    const les = hist?.samples
      .filter(
        (s) => s.name.endsWith('_bucket') && Object.entries(getLabels).every(([k, v]) => s.labels[k] === v),
      )
      .map((s) => s.labels.le);
    expect(les).toEqual([...requestDurationBuckets.map(String), '+Inf']);
    expect(sampleValue(after, 'apiserver_request_duration_seconds_count', getLabels)).toBe(
      (sampleValue(before, 'apiserver_request_duration_seconds_count', getLabels) ?? 0) + 26,
    );
    expect(hist?.samples.some((s) => s.labels.verb === 'WATCH')).toBe(false);
  });

  it('labels nothing a client made up: unknown groups and resources count with empty labels', async () => {
    const r = await api.request('GET', '/apis/evil.example/v1/hostilething');
    expect(r.status).toBe(404);
    const m = await scrape();
    const series = m.get('apiserver_request_total')?.samples ?? [];
    expect(
      series.some((s) => s.labels.group === 'evil.example' || s.labels.resource === 'hostilething'),
    ).toBe(false);
  });

  it('exports storage latency, stored objects and registered watchers', async () => {
    expect(
      (await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('s1') })).status,
    ).toBe(201);
    const watch = await openWatch(api, '/api/v1/namespaces/default/configmaps?watch=1');
    try {
      const m = await scrape();
      expect(m.get('etcd_request_duration_seconds')?.type).toBe('histogram');
      expect(
        sampleValue(m, 'etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sampleValue(m, 'apiserver_storage_objects', { resource: 'configmaps' })).toBeGreaterThanOrEqual(
        1,
      );
      expect(
        sampleValue(m, 'apiserver_registered_watchers', { group: '', version: 'v1', kind: 'ConfigMap' }),
      ).toBeGreaterThanOrEqual(1);
      expect(m.get('apiserver_requested_deprecated_apis')?.type).toBe('gauge');
      // The default ClusterRoles are written in one createAll at start: one create observed each.
      const domain = flavorName === 'orch' ? 'orch.io' : 'k8s.io';
      const roles = (await api.request('GET', `/apis/rbac.authorization.${domain}/v1/clusterroles`)).json as {
        items: unknown[];
      };
      expect(
        sampleValue(m, 'etcd_request_duration_seconds_count', {
          operation: 'create',
          type: `clusterroles.rbac.authorization.${domain}`,
        }),
      ).toBe(roles.items.length);
    } finally {
      watch.close();
    }
  });

  it('is a non-resource URL for authorization: system:monitoring reads it, others are refused', async () => {
    const monitor = await api.request('GET', '/metrics', {
      as: { username: 'prom', groups: ['system:monitoring'] },
    });
    expect(monitor.status).toBe(200);
    expect(monitor.text).toContain('# TYPE apiserver_request_total counter');
    const bob = await api.request('GET', '/metrics', { as: { username: 'bob' } });
    expect(bob.status).toBe(403);
    expect(bob.text).toContain('cannot get path \\"/metrics\\"');
    const anon = await api.request('GET', '/metrics', { anonymous: true });
    expect(anon.status).toBe(403);
    expect(anon.text).not.toContain('apiserver_request_total');
  });

  it.skipIf(!kubectlAvailable() || flavorName !== 'kubernetes')(
    'is read by `kubectl get --raw /metrics` as the admin',
    async () => {
      const r = await kubectl(['get', '--raw', '/metrics'], {
        kubeconfig: api.kubeconfigPath,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      const m = parsePrometheusText(r.stdout);
      expect(m.get('apiserver_request_total')?.samples.length).toBeGreaterThan(0);
    },
  );

  it('keeps one registry per server: two servers in one process share no series', async () => {
    const a = createApiServer({ builtinResources: true });
    const b = createApiServer({ builtinResources: true });
    const { url: ua } = await a.listen();
    const { url: ub } = await b.listen();
    try {
      for (let i = 0; i < 3; i++) await fetch(`${ua}/api/v1/namespaces/default/configmaps`);
      const ta = parsePrometheusText(await (await fetch(`${ua}/metrics`)).text());
      const tb = parsePrometheusText(await (await fetch(`${ub}/metrics`)).text());
      const list = { ...base, verb: 'LIST', scope: 'namespace', code: '200' };
      expect(sampleValue(ta, 'apiserver_request_total', list)).toBe(3);
      expect(sampleValue(tb, 'apiserver_request_total', list)).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('is absent with metrics: false', async () => {
    const s = createApiServer({ metrics: false });
    const { url } = await s.listen();
    try {
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});
