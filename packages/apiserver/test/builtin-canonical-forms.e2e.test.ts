import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * Built-in kinds come back in the forms upstream's typed decoder and encoder give them (issue 19
 * items 4 and 5): canonical Quantities, `Time` as whole UTC seconds, `MicroTime` with six
 * fractional digits, and the Pod and Service defaults that depend on other fields (requests from
 * limits, the QoS class, the external traffic policy). Expected values are what a 1.32 cluster stores.
 */
describe.each(flavorNames)(
  'canonical forms and dependent defaults of built-in kinds (%s flavor)',
  (flavorName) => {
    const { flavor, kubectl: withKubectl } = flavorUnderTest(flavorName);
    let api: TestServer;
    const ns = '/api/v1/namespaces/default';

    beforeAll(async () => {
      api = await startTestServer({ flavor: flavorName });
    });
    afterAll(async () => {
      await api.stop();
    });

    let seq = 0;
    const pod = (containers: Record<string, unknown>[]) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `p${++seq}` },
      spec: { containers: containers.map((c, i) => ({ name: `c${i}`, image: 'nginx', ...c })) },
    });
    const create = async (path: string, body: unknown) => {
      const r = await api.request('POST', path, { body });
      expect(r.status, r.text).toBe(201);
      return r.json as Record<string, any>;
    };

    it.each([
      ['0.5', '500m'],
      [0.5, '500m'],
      ['1000m', '1'],
      ['1024Mi', '1Gi'],
      ['1.5Gi', '1536Mi'],
      ['0.1', '100m'],
      ['2048Ki', '2Mi'],
      ['1000', '1k'],
      [2, '2'],
      ['100M', '100M'],
      ['1500m', '1500m'],
    ])('a quantity %j is stored as %j', async (given, stored) => {
      const created = await create(`${ns}/pods`, pod([{ resources: { requests: { memory: given } } }]));
      expect(created.spec.containers[0].resources.requests.memory).toBe(stored);
      const read = await api.request('GET', `${ns}/pods/${created.metadata.name}`);
      expect((read.json as any).spec.containers[0].resources.requests.memory).toBe(stored);
    });

    it.each([
      ['2024-01-02T03:04:05.123456789+02:00', '2024-01-02T01:04:05.123456Z'],
      ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000000Z'],
      ['2024-02-29T23:59:59.9999999-00:30', '2024-03-01T00:29:59.999999Z'],
    ])(
      'a MicroTime %s is stored as %s; a Time in the same object as whole seconds',
      async (given, stored) => {
        const lease = await create(`/apis/${flavor.group('coordination')}/v1/namespaces/default/leases`, {
          apiVersion: `${flavor.group('coordination')}/v1`,
          kind: 'Lease',
          metadata: { name: `l${++seq}` },
          spec: { holderIdentity: 'x', renewTime: given, acquireTime: given },
        });
        expect(lease.spec.renewTime).toBe(stored);
        expect(lease.spec.acquireTime).toBe(stored);
        const event = await create(`${ns}/events`, {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: `e${++seq}` },
          involvedObject: { kind: 'Pod', name: 'x', namespace: 'default' },
          reason: 'R',
          firstTimestamp: given,
          eventTime: given,
        });
        expect(event.eventTime).toBe(stored);
        expect(event.firstTimestamp).toBe(stored.replace(/\.\d{6}Z$/, 'Z'));
      },
    );

    it.each([
      ['no requests or limits', [{}], 'BestEffort'],
      ['requests only', [{ resources: { requests: { cpu: '100m' } } }], 'Burstable'],
      [
        'cpu and memory limits only (copied into requests)',
        [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }],
        'Guaranteed',
      ],
      ['a cpu limit only', [{ resources: { limits: { cpu: '1' } } }], 'Burstable'],
      [
        'equal requests and limits written differently',
        [
          {
            resources: { requests: { cpu: '1000m', memory: '1024Mi' }, limits: { cpu: '1', memory: '1Gi' } },
          },
        ],
        'Guaranteed',
      ],
      [
        'requests below limits',
        [{ resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }],
        'Burstable',
      ],
      [
        'one of two containers unlimited',
        [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }, {}],
        'Burstable',
      ],
      ['only other resources', [{ resources: { limits: { 'ephemeral-storage': '1Gi' } } }], 'BestEffort'],
      ['zero requests', [{ resources: { requests: { cpu: '0', memory: '0' } } }], 'BestEffort'],
    ])('%s: QoS class %s', async (_name, containers, qos) => {
      const created = await create(`${ns}/pods`, pod(containers as Record<string, unknown>[]));
      expect(created.status.qosClass).toBe(qos);
    });

    it('copies limits into missing requests and keeps explicit requests', async () => {
      const created = await create(
        `${ns}/pods`,
        pod([{ resources: { requests: { cpu: '250m' }, limits: { cpu: '1', memory: '512Mi' } } }]),
      );
      expect(created.spec.containers[0].resources).toEqual({
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { cpu: '1', memory: '512Mi' },
      });
      const none = await create(`${ns}/pods`, pod([{ resources: { limits: {} } }]));
      expect(none.spec.containers[0].resources.requests).toBeUndefined();
    });

    it('a NodePort or LoadBalancer Service gets externalTrafficPolicy Cluster; a ClusterIP one none', async () => {
      const svc = (type: string) => ({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `s${++seq}` },
        spec: { type, ports: [{ port: 80 }] },
      });
      expect((await create(`${ns}/services`, svc('NodePort'))).spec.externalTrafficPolicy).toBe('Cluster');
      const lb = (await create(`${ns}/services`, svc('LoadBalancer'))).spec;
      expect(lb).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
      expect((await create(`${ns}/services`, svc('ClusterIP'))).spec.externalTrafficPolicy).toBeUndefined();
    });

    it('a malformed quantity is still a 4xx naming the field, never a 500', async () => {
      const r = await api.request('POST', `${ns}/pods`, {
        body: pod([{ resources: { limits: { cpu: 'lots' } } }]),
      });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.text).toContain('cpu');
    });

    it.skipIf(!withKubectl || !kubectlAvailable())(
      'kubectl apply shows the canonical quantity and the computed QoS class, kubectl create a MicroTime in six digits UTC (kubernetes flavor only)',
      async () => {
        const manifest = JSON.stringify(pod([{ resources: { limits: { cpu: '0.5', memory: '1024Mi' } } }]));
        const r = await kubectl(
          ['apply', '-f', '-', '-o', 'jsonpath={.status.qosClass} {.spec.containers[0].resources.requests}'],
          {
            kubeconfig: api.kubeconfigPath,
            input: manifest,
          },
        );
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe('Guaranteed {"cpu":"500m","memory":"1Gi"}');
        const lease = await kubectl(
          ['create', '-f', '-', '-o', 'jsonpath={.spec.renewTime} {.metadata.creationTimestamp}'],
          {
            kubeconfig: api.kubeconfigPath,
            input: JSON.stringify({
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: { name: 'kubectl-times' },
              spec: { holderIdentity: 'x', renewTime: '2024-01-02T03:04:05.123456789+02:00' },
            }),
          },
        );
        expect(lease.stderr).toBe('');
        const [renew, created] = lease.stdout.split(' ');
        expect(renew).toBe('2024-01-02T01:04:05.123456Z');
        expect(created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      },
    );
  },
);
