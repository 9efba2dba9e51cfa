import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { isCodecError } from '../codec.js';
import { isWireDecodeError } from './errors.js';
import {
  assertProtobufPrefix,
  decodeProtobuf,
  decodeProtobufList,
  decodeProtobufWatchEvent,
  encodeProtobuf,
  encodeProtobufList,
  encodeProtobufWatchEvent,
  ProtobufFrameReader,
  protobufSupported,
} from './protobuf.js';
import { messageType } from './registry.js';

const k8s = kubernetesFlavor;

const configMap: ApiObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'app',
    namespace: 'default',
    uid: '6f1c1a2e-0000-4000-8000-000000000001',
    resourceVersion: '42',
    creationTimestamp: '2024-05-06T07:08:09Z',
    labels: { tier: 'web' },
    annotations: { note: '' },
    finalizers: ['example.com/keep'],
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u1', controller: true }],
    managedFields: [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-05-06T07:08:09Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:color': {} } },
      },
    ],
  },
  immutable: false,
  data: { color: 'blue', empty: '' },
  binaryData: { blob: 'AAEC/w==' },
};

const roundTrips: Array<[string, ApiObject]> = [
  ['ConfigMap', configMap],
  [
    'Namespace',
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', deletionTimestamp: '2024-05-06T07:08:10Z', deletionGracePeriodSeconds: 0 },
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceDeletionContentFailure',
            status: 'False',
            lastTransitionTime: '2024-05-06T07:08:10Z',
            reason: 'ContentDeleted',
            message: 'ok',
          },
        ],
      },
    },
  ],
  [
    'Secret',
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      immutable: true,
      data: { password: 'aHVudGVyMg==' },
      type: 'Opaque',
    },
  ],
  [
    'ServiceAccount',
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: 'default' },
      secrets: [{ name: 'tok' }],
      imagePullSecrets: [{ name: 'reg' }],
      automountServiceAccountToken: false,
    },
  ],
  [
    'SelfSubjectAccessReview',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'get',
          resource: 'pods',
          fieldSelector: { rawSelector: 'a=b' },
        },
      },
      status: { allowed: false, reason: 'no RBAC policy matched' },
    },
  ],
  [
    'SelfSubjectRulesReview',
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'default' },
      status: {
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
      },
    },
  ],
  [
    'SelfSubjectReview',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: '2024-05-06T07:08:09Z' },
      status: {
        userInfo: { username: 'admin', uid: 'u', groups: ['system:masters'], extra: { scopes: ['a', 'b'] } },
      },
    },
  ],
  [
    'TokenRequest',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'default', namespace: 'default' },
      spec: {
        audiences: ['https://api'],
        expirationSeconds: 600,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'x' },
      },
      status: { token: 'eyJ...', expirationTimestamp: '2024-05-06T08:08:09Z' },
    },
  ],
  [
    'Status',
    {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: {
        name: 'x',
        kind: 'configmaps',
        causes: [{ reason: 'FieldValueInvalid', message: 'm', field: 'f' }],
      },
      code: 404,
    },
  ],
];

describe('Protobuf round trip', () => {
  it.each(roundTrips)('%s decodes to the object it was encoded from', (_, obj) => {
    const bytes = encodeProtobuf(obj, k8s);
    expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(decodeProtobuf(bytes, k8s)).toEqual(obj);
  });

  it('carries apiVersion and kind in the Unknown envelope (typeMeta 1, raw 2)', () => {
    const bytes = encodeProtobuf(configMap, k8s);
    const unknown = messageType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(
      bytes.subarray(4),
    ) as unknown as {
      typeMeta: { apiVersion: string; kind: string };
      raw: Uint8Array;
    };
    expect(unknown.typeMeta).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(unknown.raw.length).toBeGreaterThan(10);
  });

  it('maps group names through the flavor, not a hard-coded domain', () => {
    const review = {
      apiVersion: 'authorization.orch.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {},
    };
    expect(decodeProtobuf(encodeProtobuf(review, orchFlavor), orchFlavor)).toEqual(review);
    expect(() => encodeProtobuf(review, k8s)).toThrow(/no Protobuf form/);
    expect(
      protobufSupported(
        { group: 'authorization.orch.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
        orchFlavor,
      ),
    ).toBe(true);
    expect(
      protobufSupported(
        { group: 'authorization.orch.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
        k8s,
      ),
    ).toBe(false);
  });

  it('lists round-trip with ListMeta', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '7', continue: 'tok', remainingItemCount: 0 },
      items: [{ metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }],
    };
    const decoded = decodeProtobufList(encodeProtobufList(list, k8s), k8s);
    expect(decoded).toEqual(list);
    expect(() => decodeProtobufList(encodeProtobuf(configMap, k8s), k8s)).toThrow(/expected a list/);
  });
});

describe('Protobuf decode of what Go clients send', () => {
  it('drops the zero values gogo always writes, as Go JSON omitempty does', () => {
    // kubectl's typed client writes every non-pointer field: empty strings, generation 0 and an
    // empty Time message for creationTimestamp.
    const meta = messageType('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const raw = messageType('k8s.io.api.core.v1.ConfigMap')
      .encode({
        metadata: {
          name: 'a',
          generateName: '',
          namespace: '',
          selfLink: '',
          uid: '',
          resourceVersion: '',
          generation: 0,
          creationTimestamp: {},
        },
        data: { k: '' },
      })
      .finish();
    expect(meta).toBeDefined();
    const unknown = messageType('k8s.io.apimachinery.pkg.runtime.Unknown')
      .encode({
        typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' },
        raw,
        contentEncoding: '',
        contentType: '',
      })
      .finish();
    const body = new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...unknown]);
    expect(decodeProtobuf(body, k8s)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
      data: { k: '' },
    });
  });

  it('keeps the zero of a pointer field (allowed: false, expirationSeconds: 0)', () => {
    const tr = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { expirationSeconds: 0 },
    };
    expect(decodeProtobuf(encodeProtobuf(tr, k8s), k8s)).toEqual(tr);
  });
});

describe('Protobuf errors', () => {
  it('rejects another prefix, a short body and an unknown kind with typed errors', () => {
    const good = encodeProtobuf(configMap, k8s);
    const bad = good.slice();
    bad[3] = 1;
    expect(() => decodeProtobuf(bad, k8s)).toThrow(
      expect.objectContaining({ reason: 'BadPrefix', code: 'Malformed' }),
    );
    expect(() => assertProtobufPrefix(bad)).toThrow(/prefix/);
    expect(() => assertProtobufPrefix(good.subarray(0, 2))).toThrow(
      expect.objectContaining({ reason: 'Truncated' }),
    );
    expect(() => assertProtobufPrefix(good)).not.toThrow();
    expect(() => decodeProtobuf(good.subarray(0, good.length - 3), k8s)).toThrow(
      expect.objectContaining({ reason: 'Truncated' }),
    );
    const widget = messageType('k8s.io.apimachinery.pkg.runtime.Unknown')
      .encode({ typeMeta: { apiVersion: 'example.com/v1', kind: 'Widget' }, raw: new Uint8Array(0) })
      .finish();
    try {
      decodeProtobuf(new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...widget]), k8s);
      expect.unreachable();
    } catch (e) {
      expect(isWireDecodeError(e, 'UnknownType')).toBe(true);
      expect(isCodecError(e, 'Malformed')).toBe(true);
    }
  });

  it('refuses to encode custom resources and values that do not fit their message', () => {
    expect(() => encodeProtobuf({ apiVersion: 'example.com/v1', kind: 'Widget' }, k8s)).toThrow(
      expect.objectContaining({ code: 'NotEncodable' }),
    );
    expect(() => encodeProtobuf({ ...configMap, data: { a: 1 } }, k8s)).toThrow(
      /data\[a\]: expected a string/,
    );
    expect(() => encodeProtobuf({ apiVersion: 'v1', kind: 'Secret', data: { a: '!!' } }, k8s)).toThrow(
      /invalid base64/,
    );
    expect(protobufSupported({ group: 'example.com', version: 'v1', kind: 'Widget' }, k8s)).toBe(false);
  });
});

describe('Protobuf Time and MicroTime use the one RFC 3339 parser (Go time.Parse rules)', () => {
  const withTime = (creationTimestamp: string): ApiObject => ({
    ...configMap,
    metadata: { ...configMap.metadata, creationTimestamp },
  });
  const lease = (renewTime: string): ApiObject => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'node-1', namespace: 'kube-node-lease' },
    spec: { holderIdentity: 'node-1', renewTime },
  });
  const roundTrip = (o: ApiObject) => decodeProtobuf(encodeProtobuf(o, k8s), k8s);

  // [sent, Time as read back (seconds, Z), MicroTime as read back (six digits, Z)]
  const accepted: Array<[string, string, string]> = [
    ['2024-05-06T07:08:09Z', '2024-05-06T07:08:09Z', '2024-05-06T07:08:09.000000Z'],
    ['2024-05-06T09:08:09.5+02:00', '2024-05-06T07:08:09Z', '2024-05-06T07:08:09.500000Z'],
    ['2024-02-29T23:59:59.1234567Z', '2024-02-29T23:59:59Z', '2024-02-29T23:59:59.123456Z'],
    ['2024-05-06T7:08:09,25Z', '2024-05-06T07:08:09Z', '2024-05-06T07:08:09.250000Z'],
  ];
  it.each(accepted)('%s', (sent, time, micro) => {
    expect(roundTrip(withTime(sent)).metadata?.creationTimestamp).toBe(time);
    expect((roundTrip(lease(sent)) as { spec: { renewTime: string } }).spec.renewTime).toBe(micro);
  });

  // What the codec accepted before and Go rejects: day 31 of a 30-day month, second 60, lower-case z,
  // a space separator; also Feb 29 outside a leap year.
  const rejected: Array<[string, string]> = [
    ['2024-04-31T00:00:00Z', 'day out of range'],
    ['2023-02-29T00:00:00Z', 'day out of range'],
    ['2016-12-31T23:59:60Z', 'second out of range'],
    ['2024-05-06T07:08:09z', 'cannot parse "z" as "Z07:00"'],
    ['2024-05-06 07:08:09Z', 'cannot parse " 07:08:09Z" as "T"'],
  ];
  it.each(rejected)('rejects %s (%s)', (sent, why) => {
    expect(() => encodeProtobuf(withTime(sent), k8s)).toThrow(why);
    expect(() => encodeProtobuf(lease(sent), k8s)).toThrow(why);
  });
});

describe('Protobuf watch frames', () => {
  it('frames a WatchEvent with a 4-byte big-endian length and the object as a prefixed envelope', () => {
    const frame = encodeProtobufWatchEvent({ type: 'MODIFIED', object: configMap }, k8s);
    const len = new DataView(frame.buffer, frame.byteOffset).getUint32(0, false);
    expect(len).toBe(frame.length - 4);
    const ev = messageType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent').decode(
      frame.subarray(4),
    ) as unknown as {
      type: string;
      object: { raw: Uint8Array };
    };
    expect(ev.type).toBe('MODIFIED');
    expect([...ev.object.raw.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(decodeProtobufWatchEvent(frame.subarray(4), k8s)).toEqual({ type: 'MODIFIED', object: configMap });
  });

  it('splits a stream into frames across arbitrary chunk boundaries', () => {
    const events = [
      { type: 'ADDED' as const, object: configMap },
      { type: 'ERROR' as const, object: roundTrips[8]![1] },
      {
        type: 'BOOKMARK' as const,
        object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '99' } },
      },
    ];
    const stream = new Uint8Array(events.flatMap((e) => [...encodeProtobufWatchEvent(e, k8s)]));
    const reader = new ProtobufFrameReader();
    const frames: Uint8Array[] = [];
    for (let i = 0; i < stream.length; i += 7) frames.push(...reader.push(stream.subarray(i, i + 7)));
    expect(reader.pending).toBe(0);
    expect(frames.map((f) => decodeProtobufWatchEvent(f, k8s))).toEqual(events);
    expect(() => new ProtobufFrameReader(10).push(stream)).toThrow(/exceeds the limit/);
  });
});
