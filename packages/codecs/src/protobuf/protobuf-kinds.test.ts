import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { samplePod, samplePodList } from './fixtures.js';
import { decodeProtobuf, decodeProtobufList, encodeProtobuf, protobufSupported } from './protobuf.js';
import { messageType } from './registry.js';

/**
 * Protobuf of the kinds beyond the core round trips of protobuf.test.ts: workloads, Leases,
 * CustomResourceDefinitions, metadata-only objects and the nesting bound.
 */

const k8s = kubernetesFlavor;

describe('Protobuf of workloads', () => {
  it('round-trips a Pod with inlined structs, IntOrString, quantities and pointer zeros', () => {
    const pod = samplePod(3);
    expect(decodeProtobuf(encodeProtobuf(pod, k8s), k8s)).toEqual(pod);
  });

  it('round-trips a PodList', () => {
    const list = samplePodList(5);
    expect(decodeProtobufList(encodeProtobuf(list, k8s), k8s)).toEqual(list);
  });

  it.each<[string, ApiObject]>([
    [
      'Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default', generation: 2 },
        spec: {
          replicas: 0,
          selector: {
            matchLabels: { app: 'web' },
            matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }],
          },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
          revisionHistoryLimit: 10,
          progressDeadlineSeconds: 600,
        },
        status: {
          observedGeneration: 2,
          replicas: 3,
          updatedReplicas: 3,
          readyReplicas: 2,
          availableReplicas: 2,
          unavailableReplicas: 1,
          conditions: [
            {
              type: 'Available',
              status: 'False',
              lastUpdateTime: '2024-05-06T07:08:09Z',
              lastTransitionTime: '2024-05-06T07:08:09Z',
              reason: 'MinimumReplicasUnavailable',
              message: 'm',
            },
          ],
        },
      },
    ],
    [
      'Scale',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 3 },
        status: { replicas: 0, selector: 'app=web' },
      },
    ],
    [
      'Lease',
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'node-1', namespace: 'kube-node-lease' },
        spec: {
          holderIdentity: 'node-1',
          leaseDurationSeconds: 40,
          renewTime: '2024-05-06T07:08:09.123456Z',
          leaseTransitions: 0,
        },
      },
    ],
    [
      'Service',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: {
          ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http' }],
          selector: { app: 'web' },
          clusterIP: '10.96.0.10',
          clusterIPs: ['10.96.0.10'],
          type: 'ClusterIP',
          sessionAffinity: 'None',
          ipFamilies: ['IPv4'],
          ipFamilyPolicy: 'SingleStack',
          internalTrafficPolicy: 'Cluster',
        },
        status: { loadBalancer: {} },
      },
    ],
    [
      'Event',
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.17c', namespace: 'default' },
        involvedObject: {
          kind: 'Pod',
          namespace: 'default',
          name: 'web',
          uid: 'u',
          apiVersion: 'v1',
          fieldPath: 'spec.containers{app}',
        },
        reason: 'Pulled',
        message: 'Container image pulled',
        source: { component: 'kubelet', host: 'node-1' },
        firstTimestamp: '2024-05-06T07:08:09Z',
        lastTimestamp: '2024-05-06T07:08:10Z',
        count: 2,
        type: 'Normal',
        eventTime: '2024-05-06T07:08:09.000001Z',
        reportingComponent: 'kubelet',
        reportingInstance: 'node-1',
      },
    ],
  ])('round-trips a %s', (_, obj) => {
    expect(decodeProtobuf(encodeProtobuf(obj, k8s), k8s)).toEqual(obj);
  });

  it('maps the coordination group through the flavor', () => {
    const lease = { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'x' }, spec: {} };
    expect(decodeProtobuf(encodeProtobuf(lease, orchFlavor), orchFlavor)).toEqual(lease);
    expect(protobufSupported({ group: 'coordination.k8s.io', version: 'v1', kind: 'LeaseList' }, k8s)).toBe(
      true,
    );
  });
});

describe('Protobuf of CustomResourceDefinitions (apiextensions/v1)', () => {
  const crd = (ext: string): ApiObject => ({
    apiVersion: `apiextensions.${ext === 'x-kubernetes-' ? 'k8s.io' : 'orch.io'}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: {
        plural: 'widgets',
        singular: 'widget',
        shortNames: ['wd'],
        kind: 'Widget',
        listKind: 'WidgetList',
      },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: false,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: {
                spec: {
                  type: 'object',
                  [`${ext}preserve-unknown-fields`]: false,
                  properties: {
                    size: { type: 'integer', minimum: 0, maximum: 10.5, default: 3, enum: [1, 3, 'x'] },
                    ports: {
                      type: 'array',
                      [`${ext}list-type`]: 'map',
                      [`${ext}list-map-keys`]: ['name'],
                      items: { type: 'object', properties: { name: { type: 'string' } } },
                    },
                    tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    closed: { type: 'object', additionalProperties: false },
                    port: { [`${ext}int-or-string`]: true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
                    ref: { $ref: '#/definitions/x', example: { a: [1, null] } },
                  },
                  dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
                  [`${ext}validations`]: [{ rule: 'self.size < 10', message: 'too big' }],
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' },
          },
          additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 }],
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: {
      conditions: [
        {
          type: 'Established',
          status: 'True',
          lastTransitionTime: '2024-05-06T07:08:09Z',
          reason: 'InitialNamesAccepted',
          message: 'ok',
        },
      ],
      acceptedNames: { plural: 'widgets', kind: 'Widget' },
      storedVersions: ['v1'],
    },
  });

  it.each([
    ['kubernetes', k8s, 'x-kubernetes-'],
    ['orch', orchFlavor, 'x-orch-'],
  ] as const)('round-trips a CRD with the %s extension names', (_, flavor, ext) => {
    const obj = crd(ext);
    expect(decodeProtobuf(encodeProtobuf(obj, flavor), flavor)).toEqual(obj);
  });

  it('names extension fields through the flavor on the way out', () => {
    const bytes = encodeProtobuf(crd('x-kubernetes-'), k8s);
    const unknown = messageType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(
      bytes.subarray(4),
    ) as unknown as { raw: Uint8Array };
    const orchView = new Uint8Array([
      0x6b,
      0x38,
      0x73,
      0x00,
      ...messageType('k8s.io.apimachinery.pkg.runtime.Unknown')
        .encode({
          typeMeta: { apiVersion: 'apiextensions.orch.io/v1', kind: 'CustomResourceDefinition' },
          raw: unknown.raw,
        })
        .finish(),
    ]);
    const decoded = JSON.stringify(decodeProtobuf(orchView, orchFlavor));
    expect(decoded).toContain('"x-orch-list-type":"map"');
    expect(decoded).not.toContain('x-kubernetes-');
  });
});

describe('Protobuf of metadata-only objects', () => {
  it('round-trips PartialObjectMetadata and its list (meta.<domain>/v1)', () => {
    const one = {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 'w', labels: { a: 'b' } },
    };
    expect(decodeProtobuf(encodeProtobuf(one, k8s), k8s)).toEqual(one);
    const list = {
      apiVersion: 'meta.orch.io/v1',
      kind: 'PartialObjectMetadataList',
      metadata: { resourceVersion: '3' },
      items: [{ apiVersion: 'meta.orch.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'w' } }],
    };
    // Items inside a list carry no TypeMeta on the wire (as in every list).
    expect(decodeProtobuf(encodeProtobuf(list, orchFlavor), orchFlavor)).toEqual({
      ...list,
      items: [{ metadata: { name: 'w' } }],
    });
  });
});

describe('Protobuf nesting bound', () => {
  const crd = (depth: number) => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
    return {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'deep.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'deep', kind: 'Deep' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      },
    };
  };
  it('decodes recursive messages up to the request-body bound and refuses deeper ones with a typed error', () => {
    expect(() => decodeProtobuf(encodeProtobuf(crd(100), k8s), k8s)).not.toThrow();
    const deep = encodeProtobuf(crd(600), k8s);
    expect(() => decodeProtobuf(deep, k8s)).toThrow(/nest more than 500 levels deep/);
    expect(() => decodeProtobuf(deep, k8s)).toThrow(expect.objectContaining({ code: 'Malformed' }));
  });
});
