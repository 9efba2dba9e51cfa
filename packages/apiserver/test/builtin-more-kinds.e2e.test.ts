import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCauses } from './helpers/causes.js';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * StatefulSet, DaemonSet, ReplicationController, Endpoints, EndpointSlice, PVC, PV, Node and
 * Ingress as upstream serves them (issue 19 item 7): defaults, the required and immutable fields
 * users meet, sub-resources, and kubectl's tables (kubernetes flavor). No controller runs any of
 * them. EndpointSlice and Ingress live in `discovery.<domain>` and `networking.<domain>`.
 */
describe.each(flavorNames)('more built-in kinds (%s flavor)', (flavorName) => {
  const { flavor, labelDomain, kubectl: withKubectl } = flavorUnderTest(flavorName);
  let api: TestServer;
  const apps = '/apis/apps/v1/namespaces/default';
  const core = '/api/v1/namespaces/default';
  const merge = { 'content-type': 'application/merge-patch+json' };

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  const template = (labels: Record<string, string>) => ({
    metadata: { labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  const post = (path: string, body: Record<string, unknown>) => api.request('POST', path, { body });

  it('StatefulSet: defaults, status, /scale, and only the allowed fields change', async () => {
    const r = await post(`${apps}/statefulsets`, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: template({ app: 'db' }),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    expect(r.status).toBe(201);
    const sts = r.json as { spec: any; status: unknown };
    expect(sts.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(sts.spec.volumeClaimTemplates[0]).toMatchObject({
      spec: { volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect(sts.status).toEqual({ replicas: 0, availableReplicas: 0 });
    const scale = await api.request('PATCH', `${apps}/statefulsets/db/scale`, {
      body: { spec: { replicas: 3 } },
      headers: merge,
    });
    expect(scale.status).toBe(200);
    expect((scale.json as { status: { selector: string } }).status.selector).toBe('app=db');
    const forbidden = await api.request('PATCH', `${apps}/statefulsets/db`, {
      body: { spec: { serviceName: 'other' } },
      headers: merge,
    });
    expect(forbidden.status).toBe(422);
    expectCauses(forbidden.json, [
      [
        'spec',
        "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ],
    ]);
    const empty = await post(`${apps}/statefulsets`, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'bad' },
      spec: { selector: {}, template: template({ app: 'x' }) },
    });
    expect(empty.status).toBe(422);
    expectCauses(empty.json, [['spec.selector', 'empty selector is invalid for statefulset']]);
  });

  it('DaemonSet: defaults, zeroed status, immutable selector', async () => {
    const r = await post(`${apps}/daemonsets`, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }) },
    });
    expect(r.status).toBe(201);
    const ds = r.json as { spec: any; status: unknown };
    expect(ds.spec).toMatchObject({
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
    expect(ds.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    const change = await api.request('PATCH', `${apps}/daemonsets/agent`, {
      body: {
        spec: {
          selector: { matchLabels: { app: 'agent', v: '2' } },
          template: { metadata: { labels: { v: '2' } } },
        },
      },
      headers: merge,
    });
    expect(change.status).toBe(422);
    expectCauses(change.json, [['spec.selector', 'field is immutable']]);
  });

  it('ReplicationController: selector and labels default from the template', async () => {
    const r = await post(`${core}/replicationcontrollers`, {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'old' },
      spec: { template: template({ app: 'old' }) },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      metadata: { labels: { app: 'old' } },
      spec: { replicas: 1, selector: { app: 'old' } },
      status: { replicas: 0 },
    });
  });

  it('PersistentVolumeClaim and PersistentVolume: defaults, required fields, immutable claim spec', async () => {
    const pvc = await post(`${core}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(pvc.status).toBe(201);
    expect(pvc.json).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
    const grow = await api.request('PATCH', `${core}/persistentvolumeclaims/data`, {
      body: { spec: { resources: { requests: { storage: '2Gi' } } } },
      headers: merge,
    });
    expect(grow.status).toBe(200);
    const modes = await api.request('PATCH', `${core}/persistentvolumeclaims/data`, {
      body: { spec: { accessModes: ['ReadWriteMany'] } },
      headers: merge,
    });
    expect(modes.status).toBe(422);
    expectCauses(modes.json, [
      [
        'spec',
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ],
    ]);
    const bad = await post(`${core}/persistentvolumeclaims`, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'bad' },
      spec: {},
    });
    expect(bad.status).toBe(422);
    expectCauses(bad.json, [
      ['spec.accessModes', 'Required value: at least 1 access mode is required'],
      ['spec.resources[storage]', 'Required value'],
    ]);
    const deleted = await api.request('DELETE', `${core}/persistentvolumeclaims/data`);
    expect((deleted.json as { kind: string }).kind).toBe('PersistentVolumeClaim');

    const pv = await post('/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    expect(pv.status).toBe(201);
    expect(pv.json).toMatchObject({
      spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    expect((pv.json as { metadata: { namespace?: string } }).metadata.namespace).toBeUndefined();
    const noSource = await post('/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv2' },
      spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'] },
    });
    expect(noSource.status).toBe(422);
    expectCauses(noSource.json, [['spec', 'Required value: must specify a volume type']]);
  });

  it('Node keeps the status its creator sends; /status writes it; Endpoints and EndpointSlice validate', async () => {
    const node = await post('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { [`node-role.${labelDomain}/control-plane`]: '' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.32.0' } },
    });
    expect(node.status).toBe(201);
    expect(
      (node.json as { status: { nodeInfo: { kubeletVersion: string } } }).status.nodeInfo.kubeletVersion,
    ).toBe('v1.32.0');
    const cordon = await api.request('PATCH', '/api/v1/nodes/n1', {
      body: { spec: { unschedulable: true } },
      headers: merge,
    });
    expect(cordon.status).toBe(200);

    const ep = await post(`${core}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web' },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }] }],
    });
    expect(ep.status).toBe(201);
    const noIp = await post(`${core}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'bad' },
      subsets: [{ addresses: [{ hostname: 'x' }] }],
    });
    expect(noIp.status).toBe(422);
    expectCauses(noIp.json, [['subsets[0].addresses[0].ip', 'Required value']]);
    const badPort = await post(`${core}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'bad' },
      subsets: [{ addresses: [{ ip: '10.0.0.3' }], ports: [{ port: 70000 }] }],
    });
    expect(badPort.status).toBe(422);
    expectCauses(badPort.json, [['subsets[0].ports[0].port', 'must be between 1 and 65535, inclusive']]);
    const slices = `/apis/${flavor.group('discovery')}/v1/namespaces/default/endpointslices`;
    const slice = await post(slices, {
      apiVersion: `${flavor.group('discovery')}/v1`,
      kind: 'EndpointSlice',
      metadata: { name: 'web-abc' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'] }],
      ports: [{ port: 80 }],
    });
    expect(slice.status).toBe(201);
    const change = await api.request('PATCH', `${slices}/web-abc`, {
      body: { addressType: 'IPv6' },
      headers: merge,
    });
    expect(change.status).toBe(422);
    expectCauses(change.json, [['addressType', 'field is immutable']]);
  });

  it("discovery lists the kinds and sub-resources kubectl users reach for, in the flavor's groups", async () => {
    type Resources = { resources: { name: string; shortNames?: string[]; categories?: string[] }[] };
    const names = async (path: string) => {
      const r = await api.request('GET', path);
      expect(r.status, path).toBe(200);
      return (r.json as Resources).resources;
    };
    const groups = ((await api.request('GET', '/apis')).json as { groups: { name: string }[] }).groups.map(
      (g) => g.name,
    );
    expect(groups).toEqual(
      expect.arrayContaining(['apps', 'batch', flavor.group('discovery'), flavor.group('networking')]),
    );
    /** Each group version and (space-separated) resources its discovery must list. */
    const served: [string, string][] = [
      [
        '/api/v1',
        'endpoints nodes nodes/status persistentvolumeclaims persistentvolumes pods/log pods/ephemeralcontainers replicationcontrollers services',
      ],
      [
        '/apis/apps/v1',
        'deployments deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale daemonsets daemonsets/status',
      ],
      ['/apis/batch/v1', 'jobs jobs/status'],
      [`/apis/${flavor.group('discovery')}/v1`, 'endpointslices'],
      [`/apis/${flavor.group('networking')}/v1`, 'ingresses ingresses/status'],
    ];
    for (const [path, resources] of served)
      expect(
        (await names(path)).map((r) => r.name),
        path,
      ).toEqual(expect.arrayContaining(resources.split(' ')));
    expect((await names('/apis/batch/v1')).find((r) => r.name === 'cronjobs')).toMatchObject({
      shortNames: ['cj'],
      categories: ['all'],
    });
  });

  it('Ingress lives in networking.<domain>/v1 with generation and /status', async () => {
    const ingresses = `/apis/${flavor.group('networking')}/v1/namespaces/default/ingresses`;
    const created = await post(ingresses, {
      apiVersion: `${flavor.group('networking')}/v1`,
      kind: 'Ingress',
      metadata: { name: 'site' },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: 'foo.com',
            http: {
              paths: [
                {
                  path: '/bar',
                  pathType: 'Prefix',
                  backend: { service: { name: 'svc1', port: { number: 8080 } } },
                },
              ],
            },
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      apiVersion: `${flavor.group('networking')}/v1`,
      metadata: { generation: 1 },
    });
    const status = await api.request('PATCH', `${ingresses}/site/status`, {
      body: { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
      headers: merge,
    });
    expect(status.status).toBe(200);
    const got = (await api.request('GET', `${ingresses}/site`)).json as {
      metadata: { generation: number };
      status: unknown;
    };
    expect(got.metadata.generation).toBe(1);
    expect(got.status).toEqual({ loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } });
  });

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl get all, get of each kind, explain (kubernetes flavor only)',
    async () => {
      const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });
      const all = await k('get', 'all');
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain('statefulset.apps/db');
      expect(all.stdout).toContain('daemonset.apps/agent');
      expect(all.stdout).toContain('replicationcontroller/old');
      expect(all.stdout).not.toContain('endpoints/');
      const sts = await k('get', 'sts', 'db');
      expect(sts.stdout).toMatch(/^NAME\s+READY\s+AGE\ndb\s+0\/3\s+\S+\n$/);
      const ds = await k('get', 'ds');
      expect(ds.stdout).toMatch(
        /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\nagent\s+0\s+0\s+0\s+0\s+0\s+<none>\s+\S+\n$/,
      );
      const nodes = await k('get', 'nodes');
      expect(nodes.stdout).toMatch(
        /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\nn1\s+Ready,SchedulingDisabled\s+control-plane\s+\S+\s+v1\.32\.0\n$/,
      );
      const ep = await k('get', 'ep', 'web');
      expect(ep.stdout).toMatch(/\nweb\s+10\.0\.0\.1:80,10\.0\.0\.2:80\s+\S+\n$/);
      const slices = await k('get', 'endpointslices');
      expect(slices.stdout).toMatch(/\nweb-abc\s+IPv4\s+80\s+10\.0\.0\.1\s+\S+\n$/);
      const pv = await k('get', 'pv');
      expect(pv.stdout).toMatch(/\npv1\s+5Gi\s+RWO\s+Retain\s+Pending\s+<unset>\s+\S+\n$/);
      const explain = await k('explain', 'statefulset.spec.volumeClaimTemplates');
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain('KIND:       StatefulSet');
      // kubectl create ingress sends a Protobuf body.
      const ing = await k(
        'create',
        'ingress',
        'web',
        '--rule=foo.com/bar=svc1:8080,tls=my-cert',
        '--class=nginx',
      );
      expect(ing.code, ing.stderr).toBe(0);
      expect(ing.stdout).toBe('ingress.networking.k8s.io/web created\n');
      const ings = await k('get', 'ing', 'web');
      expect(ings.stdout).toMatch(
        /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nweb\s+nginx\s+foo\.com\s+80, 443\s+\S+\n$/,
      );
      for (const target of [
        'node/n1',
        'sts/db',
        'ds/agent',
        'rc/old',
        'pv/pv1',
        'ep/web',
        'endpointslice/web-abc',
        'ing/web',
      ]) {
        const describe = await k('describe', target);
        expect(describe.code, `${target}: ${describe.stderr}`).toBe(0);
        expect(describe.stdout).toMatch(/^Name:\s+\S+\n/);
      }
    },
  );
});
