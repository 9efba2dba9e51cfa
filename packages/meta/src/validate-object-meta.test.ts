import { describe, expect, it } from 'vitest';
import { nameIsPathSegment } from './names.js';
import type { ObjectMeta } from './object.js';
import { errors } from './status.js';
import {
  totalAnnotationSizeLimitBytes,
  type ValidateObjectMetaOptions,
  validateFieldManager,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './validate-object-meta.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

type Row = [string, ObjectMeta, ValidateObjectMetaOptions, Array<[string, string, string]>];
const ns: ValidateObjectMetaOptions = { namespaced: true };
const cluster: ValidateObjectMetaOptions = { namespaced: false };

describe('validateObjectMeta', () => {
  const table: Row[] = [
    ['valid namespaced', { name: 'a', namespace: 'default' }, ns, []],
    ['valid cluster-scoped', { name: 'node-1' }, cluster, []],
    ['generateName without name', { generateName: 'web-', namespace: 'ns' }, ns, []],
    [
      'neither name nor generateName',
      { namespace: 'ns' },
      ns,
      [['FieldValueRequired', 'metadata.name', 'Required value: name or generateName is required']],
    ],
    [
      'bad name',
      { name: 'Bad_Name', namespace: 'ns' },
      ns,
      [['FieldValueInvalid', 'metadata.name', `Invalid value: "Bad_Name": ${subdomainMsg}`]],
    ],
    [
      'bad generateName',
      { generateName: 'Web-', namespace: 'ns' },
      ns,
      [['FieldValueInvalid', 'metadata.generateName', `Invalid value: "Web-": ${subdomainMsg}`]],
    ],
    [
      'missing namespace',
      { name: 'a' },
      ns,
      [['FieldValueRequired', 'metadata.namespace', 'Required value']],
    ],
    [
      'bad namespace',
      { name: 'a', namespace: 'a.b' },
      ns,
      [['FieldValueInvalid', 'metadata.namespace', 'Invalid value: "a.b": must not contain dots']],
    ],
    [
      'namespace on cluster-scoped',
      { name: 'a', namespace: 'x' },
      cluster,
      [['FieldValueForbidden', 'metadata.namespace', 'Forbidden: not allowed on this type']],
    ],
    [
      'custom name validator',
      { name: 'Any Name:1' },
      { namespaced: false, nameValidator: nameIsPathSegment },
      [],
    ],
    [
      'custom name validator rejects',
      { name: 'a/b' },
      { namespaced: false, nameValidator: nameIsPathSegment },
      [['FieldValueInvalid', 'metadata.name', `Invalid value: "a/b": may not contain '/'`]],
    ],
    [
      'negative generation',
      { name: 'a', generation: -1 },
      cluster,
      [['FieldValueInvalid', 'metadata.generation', 'Invalid value: -1: must be greater than or equal to 0']],
    ],
    [
      'bad label key and value',
      { name: 'a', labels: { 'a/b/c': 'x', ok: '-bad' } },
      cluster,
      [
        ['FieldValueInvalid', 'metadata.labels', 'Invalid value: "a/b/c": a qualified name must'],
        [
          'FieldValueInvalid',
          'metadata.labels',
          'Invalid value: "-bad": a valid label must be an empty string',
        ],
      ],
    ],
    [
      'uppercase annotation key is fine',
      { name: 'a', annotations: { 'Example.COM/Key': 'any value at all' } },
      cluster,
      [],
    ],
    [
      'bad annotation key',
      { name: 'a', annotations: { 'bad key': '' } },
      cluster,
      [['FieldValueInvalid', 'metadata.annotations', 'Invalid value: "bad key": name part must']],
    ],
    [
      'annotations too large',
      { name: 'a', annotations: { k: 'x'.repeat(totalAnnotationSizeLimitBytes) } },
      cluster,
      [['FieldValueTooLong', 'metadata.annotations', 'Too long: may not be more than 262144 bytes']],
    ],
    [
      'annotations at the limit',
      { name: 'a', annotations: { k: 'x'.repeat(totalAnnotationSizeLimitBytes - 1) } },
      cluster,
      [],
    ],
    [
      'annotation size counts UTF-8 bytes',
      { name: 'a', annotations: { k: 'é'.repeat(totalAnnotationSizeLimitBytes / 2) } },
      cluster,
      [['FieldValueTooLong', 'metadata.annotations', 'Too long']],
    ],
    [
      'bad finalizer',
      { name: 'a', finalizers: ['example.com/ok', 'bad finalizer'] },
      cluster,
      [['FieldValueInvalid', 'metadata.finalizers', 'Invalid value: "bad finalizer": name part must']],
    ],
    [
      'orphan and foregroundDeletion',
      { name: 'a', finalizers: ['orphan', 'foregroundDeletion'] },
      cluster,
      [
        [
          'FieldValueInvalid',
          'metadata.finalizers',
          'Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
        ],
      ],
    ],
    [
      'owner reference fields required',
      { name: 'a', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
      cluster,
      [
        [
          'FieldValueInvalid',
          'metadata.ownerReferences.apiVersion',
          'Invalid value: "": version must not be empty',
        ],
        ['FieldValueInvalid', 'metadata.ownerReferences.kind', 'Invalid value: "": kind must not be empty'],
        ['FieldValueInvalid', 'metadata.ownerReferences.name', 'Invalid value: "": name must not be empty'],
        ['FieldValueInvalid', 'metadata.ownerReferences.uid', 'Invalid value: "": uid must not be empty'],
      ],
    ],
    [
      'apiVersion with too many slashes has no version',
      { name: 'a', ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }] },
      cluster,
      [['FieldValueInvalid', 'metadata.ownerReferences.apiVersion', 'version must not be empty']],
    ],
    [
      'events cannot own',
      { name: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] },
      cluster,
      [
        [
          'FieldValueInvalid',
          'metadata.ownerReferences',
          '/v1, Kind=Event is disallowed from being an owner',
        ],
      ],
    ],
    [
      'two controllers',
      {
        name: 'a',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r1', uid: 'u1', controller: true },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r2', uid: 'u2', controller: true },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r3', uid: 'u3', controller: false },
        ],
      },
      cluster,
      [
        [
          'FieldValueInvalid',
          'metadata.ownerReferences',
          'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r1 and ReplicaSet/r2',
        ],
      ],
    ],
    [
      'managedFields',
      {
        name: 'a',
        managedFields: [
          { manager: 'm', operation: 'Patch' as never, fieldsType: 'FieldsV2' },
          { manager: 'ok', operation: 'Apply' },
        ],
      },
      cluster,
      [
        [
          'FieldValueInvalid',
          'metadata.managedFields[0].operation',
          'Invalid value: "Patch": must be `Apply` or `Update`',
        ],
        [
          'FieldValueInvalid',
          'metadata.managedFields[0].fieldsType',
          'Invalid value: "FieldsV2": must be `FieldsV1`',
        ],
      ],
    ],
  ];
  it.each(table)('%s', (_name, meta, opts, want) => {
    const got = validateObjectMeta(meta, opts);
    expect(got.length).toBe(want.length);
    want.forEach(([reason, field, msg], i) => {
      expect(got[i]?.reason).toBe(reason);
      expect(got[i]?.field).toBe(field);
      expect(got[i]?.message).toContain(msg);
    });
  });

  it('feeds errors.invalid for a 422', () => {
    const causes = validateObjectMeta({ name: 'Bad' }, { namespaced: true });
    const err = errors.invalid('', 'ConfigMap', 'Bad', causes);
    expect(err.code).toBe(422);
    expect(err.message).toBe(
      `ConfigMap "Bad" is invalid: [metadata.name: Invalid value: "Bad": ${subdomainMsg}, metadata.namespace: Required value]`,
    );
  });

  it('honours fieldPath', () => {
    expect(validateObjectMeta({}, { namespaced: false, fieldPath: 'spec.template.metadata' })[0]?.field).toBe(
      'spec.template.metadata.name',
    );
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'ns',
    uid: 'u1',
    resourceVersion: '5',
    generation: 2,
    creationTimestamp: '2024-01-01T00:00:00Z',
    finalizers: ['x.io/a'],
  };
  const table: Array<[string, ObjectMeta, ObjectMeta, Array<[string, string]>]> = [
    ['unchanged', { ...old }, old, []],
    ['labels may change', { ...old, labels: { a: 'b' } }, old, []],
    [
      'name immutable',
      { ...old, name: 'b' },
      old,
      [['metadata.name', 'Invalid value: "b": field is immutable']],
    ],
    [
      'namespace immutable',
      { ...old, namespace: 'other' },
      old,
      [['metadata.namespace', 'Invalid value: "other": field is immutable']],
    ],
    [
      'uid immutable',
      { ...old, uid: 'u2' },
      old,
      [['metadata.uid', 'Invalid value: "u2": field is immutable']],
    ],
    [
      'creationTimestamp immutable',
      { ...old, creationTimestamp: '2025-01-01T00:00:00Z' },
      old,
      [['metadata.creationTimestamp', 'Invalid value: "2025-01-01T00:00:00Z": field is immutable']],
    ],
    [
      'resourceVersion required',
      { ...old, resourceVersion: '' },
      old,
      [['metadata.resourceVersion', 'Invalid value: "": must be specified for an update']],
    ],
    [
      'generation decremented',
      { ...old, generation: 1 },
      old,
      [['metadata.generation', 'Invalid value: 1: must not be decremented']],
    ],
    ['finalizer added while not deleting', { ...old, finalizers: ['x.io/a', 'x.io/b'] }, old, []],
    [
      'finalizer added while deleting',
      { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', finalizers: ['x.io/a', 'x.io/c', 'x.io/b'] },
      { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' },
      [
        [
          'metadata.finalizers',
          'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x.io/b", "x.io/c"}',
        ],
      ],
    ],
    [
      'finalizer removed while deleting',
      { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', finalizers: [] },
      { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' },
      [],
    ],
    [
      'deletionTimestamp immutable',
      { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' },
      old,
      [['metadata.deletionTimestamp', 'Invalid value: "2024-02-01T00:00:00Z": field is immutable']],
    ],
    ['null and absent are equal', { ...old, deletionTimestamp: null }, old, []],
  ];
  it.each(table)('%s', (_n, next, prev, want) => {
    const got = validateObjectMetaUpdate(next, prev);
    expect(got.map((c) => [c.field, c.message])).toEqual(want);
  });
});

describe('validateFieldManager', () => {
  const table: Array<[string, string[]]> = [
    ['kubectl-client-side-apply', []],
    ['with space', []],
    ['x'.repeat(128), []],
    ['x'.repeat(129), ['Too long: may not be more than 128 bytes']],
    ['a\u0007b', ['Invalid value: "a\\u0007b": invalid character U+0007 (at position 1)']],
  ];
  it.each(table)('%j', (m, want) =>
    expect(validateFieldManager(m, 'fieldManager').map((c) => c.message)).toEqual(want),
  );
});
