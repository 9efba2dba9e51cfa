import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { type Row, runRow } from '../testing/table.js';
import { update } from './field-manager.js';

const meta = { name: 'w' };
const cases: Row[] = [
  {
    name: 'create: the creator owns every field it set, server-set metadata excluded',
    writes: [
      {
        update: {
          metadata: {
            ...meta,
            namespace: 'ns',
            uid: 'u1',
            resourceVersion: '5',
            creationTimestamp: '2026-01-01T00:00:00Z',
            labels: { a: '1' },
          },
          spec: { color: 'red' },
        },
        manager: 'kubectl-create',
      },
    ],
    object: {
      metadata: {
        ...meta,
        namespace: 'ns',
        uid: 'u1',
        resourceVersion: '5',
        creationTimestamp: '2026-01-01T00:00:00Z',
        labels: { a: '1' },
      },
      spec: { color: 'red' },
    },
    managedFields: {
      'kubectl-create/Update': {
        'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
        'f:spec': { '.': {}, 'f:color': {} },
      },
    },
  },
  {
    name: 'an update never conflicts and takes the changed fields from an applier',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'L' } }, manager: 'A' },
      { update: { metadata: meta, spec: { color: 'blue', size: 'L' } }, manager: 'kubectl-edit' },
    ],
    object: { metadata: meta, spec: { color: 'blue', size: 'L' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:size': {} } },
      'kubectl-edit/Update': { 'f:spec': { 'f:color': {} } },
    },
  },
  {
    name: 'an update that removes a field removes it from every manager',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'L' } }, manager: 'A' },
      { update: { metadata: meta, spec: { size: 'L' } }, manager: 'kubectl-edit' },
    ],
    object: { metadata: meta, spec: { size: 'L' } },
    managedFields: { 'A/Apply': { 'f:spec': { 'f:size': {} } } },
  },
  {
    name: 'an update that changes nothing adds no entry',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      { update: { metadata: meta, spec: { color: 'red' } }, manager: 'kubectl-edit' },
    ],
    object: { metadata: meta, spec: { color: 'red' } },
    managedFields: { 'A/Apply': { 'f:spec': { 'f:color': {} } } },
  },
  {
    name: 'successive updates by one manager accumulate in one entry per apiVersion',
    writes: [
      { update: { metadata: meta, spec: { color: 'red' } }, manager: 'ctl' },
      { update: { metadata: meta, spec: { color: 'red', size: 'S' } }, manager: 'ctl' },
      {
        update: { metadata: meta, spec: { color: 'red', size: 'S', image: 'x' } },
        manager: 'ctl',
        apiVersion: 'example.com/v2',
      },
    ],
    object: { metadata: meta, spec: { color: 'red', size: 'S', image: 'x' } },
    managedFields: {
      'ctl/Update': { 'f:spec': { '.': {}, 'f:color': {}, 'f:size': {} } },
      'ctl/Update@example.com/v2': { 'f:spec': { 'f:image': {} } },
    },
  },
  {
    name: 'a status write is recorded with its sub-resource',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      {
        update: { metadata: meta, spec: { color: 'red' }, status: { phase: 'Ready' } },
        manager: 'controller',
        subresource: 'status',
      },
    ],
    object: { metadata: meta, spec: { color: 'red' }, status: { phase: 'Ready' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'controller/Update/status': { 'f:status': { '.': {}, 'f:phase': {} } },
    },
  },
  {
    name: 'an apply after an update conflicts with the updater, naming its version',
    writes: [
      {
        update: { metadata: meta, data: { color: 'red' } },
        manager: 'kubectl-client-side-apply',
        apiVersion: 'v1',
      },
      { apply: { metadata: meta, data: { color: 'green' } }, manager: 'kubectl', apiVersion: 'v1' },
    ],
    conflict: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.color',
  },
];

describe('update ownership (spec doc 1 §4.9 items 3, 6; every non-apply write)', () => {
  it.each(cases)('$name', (row) => {
    const r = runRow(row, widgetSchema);
    if (row.conflict !== undefined) {
      expect((r.error as Error | undefined)?.message).toBe(row.conflict);
      return;
    }
    expect(r.error).toBeUndefined();
    expect(r.object).toEqual(row.object);
    expect(r.managedFields).toEqual(row.managedFields);
  });

  it('records the time only when the write changed something the writer now owns', () => {
    const first = update(
      undefined,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { a: 'b' } },
      { manager: 'm', apiVersion: 'v1', now: '2026-01-01T00:00:00.123Z' },
    );
    expect(first.managedFields[0]?.time).toBe('2026-01-01T00:00:00Z');
    const same = update(
      first.object,
      { ...first.object },
      { manager: 'm', apiVersion: 'v1', now: '2026-02-02T00:00:00Z' },
    );
    expect(same.managedFields[0]?.time).toBe('2026-01-01T00:00:00Z');
    const changed = update(
      first.object,
      { ...first.object, data: { a: 'c' } },
      { manager: 'm', apiVersion: 'v1', now: '2026-02-02T00:00:00Z' },
    );
    expect(changed.managedFields[0]?.time).toBe('2026-02-02T00:00:00Z');
  });

  it('works without a schema: every map granular, every list atomic', () => {
    const r = update(
      undefined,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { a: 'b' }, list: [1, 2] },
      { manager: 'm', apiVersion: 'v1' },
    );
    expect(r.managedFields[0]?.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:a': {} }, 'f:list': {} });
  });
});
