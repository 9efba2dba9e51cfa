import { crdFixture, kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { causesOf } from './helpers/causes.js';
import { flavorNames } from './helpers/flavors.js';
import { kubectlSuite } from './helpers/kubectl-suite.js';

/**
 * What kubectl users see of defaulting and validation (empty maps, Deployment and Service defaults,
 * label rules, verbs, patch types), found by using stock kubectl 1.32 against the reference server, each
 * compared with what a Kubernetes 1.32 cluster prints (skipped on machines without kubectl); and the
 * same server behaviour over HTTP under both flavors.
 */
describe.each(flavorNames)('defaults and validation over HTTP (%s flavor)', (flavorName) => {
  let api: TestServer;
  const ns = '/api/v1/namespaces/default';
  const merge = { 'content-type': 'application/merge-patch+json' };
  const create = async (path: string, body: unknown) => {
    const r = await api.request('POST', path, { body });
    expect(r.status, r.text).toBe(201);
    return r.json as Record<string, any>;
  };

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('removing the last label or annotation leaves no empty map behind (Go omitempty)', async () => {
    await create(`${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'meta', labels: { x: '1' }, annotations: { note: 'hi' } },
    });
    const r = await api.request('PATCH', `${ns}/configmaps/meta`, {
      body: { metadata: { labels: { x: null }, annotations: { note: null } } },
      headers: merge,
    });
    expect(r.status).toBe(200);
    const { metadata } = (await api.request('GET', `${ns}/configmaps/meta`)).json as {
      metadata: Record<string, unknown>;
    };
    expect(metadata.labels).toBeUndefined();
    expect(metadata.annotations).toBeUndefined();
  });

  it('a Deployment gets the upstream defaults; Recreate gets no rollingUpdate, a tagged image IfNotPresent', async () => {
    const deployment = (name: string, image: string, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
        ...extra,
      },
    });
    const web = await create('/apis/apps/v1/namespaces/default/deployments', deployment('web', 'nginx'));
    expect(web.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    });
    expect(web.spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      securityContext: {},
    });
    expect(web.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
    const rec = await create(
      '/apis/apps/v1/namespaces/default/deployments',
      deployment('rec', 'nginx:1.27', { strategy: { type: 'Recreate' } }),
    );
    expect(rec.spec.strategy).toEqual({ type: 'Recreate' });
    expect(rec.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it.each([
    [
      'an annotation key with a space',
      { annotations: { 'bad key': '1' } },
      'metadata.annotations',
      'Invalid value: "bad key": ',
    ],
    [
      'a label key with a space',
      { labels: { 'bad key': '1' } },
      'metadata.labels',
      'Invalid value: "bad key": ',
    ],
    [
      'a label value starting with a dash',
      { labels: { app: '-bad-' } },
      'metadata.labels',
      'Invalid value: "-bad-": a valid label must be',
    ],
  ])('%s is a 422 naming the field', async (_name, meta, field, message) => {
    const r = await api.request('POST', `${ns}/configmaps`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keys', ...meta } },
    });
    expect(r.status).toBe(422);
    const cause = causesOf(r.json).find((c) => c.field === field);
    expect(cause?.message, JSON.stringify(r.json)).toContain(message);
  });

  it('namespaces have no deletecollection verb (discovery), and DELETE on the collection is 405', async () => {
    const list = (await api.request('GET', '/api/v1')).json as {
      resources: { name: string; verbs: string[] }[];
    };
    expect(list.resources.find((r) => r.name === 'namespaces')?.verbs.sort()).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect((await api.request('DELETE', '/api/v1/namespaces')).status).toBe(405);
  });

  it('a Service gets SetDefaults_Service: targetPort = port, internalTrafficPolicy Cluster', async () => {
    const svc = await create(`${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'plain' },
      spec: { selector: { a: 'b' }, ports: [{ port: 80 }] },
    });
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    });
  });
});

describe.skipIf(!kubectlAvailable())('kubectl as a user (kubernetes flavor)', () => {
  const suite = kubectlSuite();
  const { k } = suite;

  it('removing the last label or annotation leaves no empty map behind (Go omitempty)', async () => {
    expect((await k('create', 'cm', 'meta', '--from-literal=a=b')).code).toBe(0);
    expect((await k('label', 'cm', 'meta', 'x=1')).code).toBe(0);
    expect((await k('annotate', 'cm', 'meta', 'note=hi')).code).toBe(0);
    expect((await k('label', 'cm', 'meta', 'x-')).stdout).toBe('configmap/meta unlabeled\n');
    expect((await k('annotate', 'cm', 'meta', 'note-')).stdout).toBe('configmap/meta annotated\n');
    const yaml = await k('get', 'cm', 'meta', '-o', 'yaml');
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).not.toContain('labels:');
    expect(yaml.stdout).not.toContain('annotations:');
  });

  it('a Deployment gets the upstream defaults (strategy, history, deadline, pod template)', async () => {
    expect((await k('create', 'deployment', 'web', '--image=nginx', '--replicas=2')).code).toBe(0);
    const r = await k('get', 'deploy', 'web', '-o', 'json');
    expect(r.code).toBe(0);
    const spec = JSON.parse(r.stdout).spec;
    expect(spec).toMatchObject({
      replicas: 2,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    });
    expect(spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      securityContext: {},
    });
    expect(spec.template.spec.containers[0]).toMatchObject({
      image: 'nginx',
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
    const d = await k('describe', 'deploy', 'web');
    expect(d.stdout).toMatch(/StrategyType:\s+RollingUpdate\n/);
    expect(d.stdout).toMatch(/RollingUpdateStrategy:\s+25% max unavailable, 25% max surge\n/);

    // Recreate gets no rollingUpdate; a tagged image is pulled IfNotPresent.
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'rec' },
      spec: {
        selector: { matchLabels: { app: 'rec' } },
        strategy: { type: 'Recreate' },
        template: {
          metadata: { labels: { app: 'rec' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
        },
      },
    };
    const rec = await kubectl(['create', '-f', '-', '-o', 'json'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: JSON.stringify(manifest),
    });
    expect(rec.code).toBe(0);
    const recSpec = JSON.parse(rec.stdout).spec;
    expect(recSpec.replicas).toBe(1);
    expect(recSpec.strategy).toEqual({ type: 'Recreate' });
    expect(recSpec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it("a strategic merge patch of a custom resource answers upstream's 415 message", async () => {
    const crd = crdFixture({
      group: 'qa.example.com',
      plural: 'widgets',
      kind: 'Widget',
      shortNames: ['wd'],
      spec: { size: { type: 'integer' } },
    });

    const kin = (input: unknown, ...args: string[]) =>
      kubectl(args, { kubeconfig: suite.api.kubeconfigPath, input: JSON.stringify(input) });
    expect((await kin(crd, 'create', '-f', '-')).code).toBe(0);
    const w = {
      apiVersion: 'qa.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3 },
    };
    expect((await kin(w, 'create', '-f', '-')).code).toBe(0);
    const r = await k('patch', 'wd', 'w1', '-p', '{"spec":{"size":9}}');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: application/strategic-merge-patch+json is not supported by qa.example.com/v1, Kind=Widget: ' +
        'the body of the request was in an unknown format - accepted media types include: ' +
        'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n',
    );
  });

  it('label and annotation keys and values are validated as upstream (422)', async () => {
    expect((await k('create', 'cm', 'keys')).code).toBe(0);
    const a = await k('annotate', 'cm', 'keys', 'bad key=1');
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(
      'The ConfigMap "keys" is invalid: metadata.annotations: Invalid value: "bad key": ',
    );
    const l = await k('label', 'cm', 'keys', 'bad key=1');
    expect(l.code).toBe(1);
    expect(l.stderr).toContain(
      'The ConfigMap "keys" is invalid: metadata.labels: Invalid value: "bad key": ',
    );
    const c = await kubectl(['create', '-f', '-'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'keys2', labels: { app: '-bad-' } },
      }),
    });
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('metadata.labels: Invalid value: "-bad-": a valid label must be');
    expect((await k('get', 'cm', 'keys', '-o', 'jsonpath={.metadata}')).stdout).not.toContain('bad key');
  });

  it('namespaces have no deletecollection verb, as upstream (api-resources, DELETE on the collection is 405)', async () => {
    const r = await k('api-resources', '-o', 'wide', '--api-group=');
    expect(r.stdout).toMatch(
      /namespaces\s+ns\s+v1\s+false\s+Namespace\s+create,delete,get,list,patch,update,watch\s*\n/,
    );
    expect((await suite.api.request('DELETE', '/api/v1/namespaces')).status).toBe(405);
  });

  it('a Service gets SetDefaults_Service: targetPort = port, internalTrafficPolicy Cluster', async () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'plain' },
      spec: { selector: { a: 'b' }, ports: [{ port: 80 }] },
    };
    const r = await kubectl(['create', '-f', '-', '-o', 'json'], {
      kubeconfig: suite.api.kubeconfigPath,
      input: JSON.stringify(svc),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    });
  });
});
