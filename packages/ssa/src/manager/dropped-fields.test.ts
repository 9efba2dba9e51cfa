import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { type Row, runRow } from '../testing/table.js';

const meta = { name: 'w' };
const cases: Row[] = [
  {
    name: 'a field the applier dropped and owned alone is deleted',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'L' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { color: 'red' } },
    managedFields: { 'A/Apply': { 'f:spec': { 'f:color': {} } } },
  },
  {
    name: 'a dropped field with a schema default is reset to the default (replicas → 1)',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { replicas: 1, image: 'nginx' } },
    managedFields: { 'A/Apply': { 'f:spec': { 'f:image': {} } } },
  },
  {
    name: 'a dropped field another manager also owns stays, owned by that manager',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'L' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { size: 'L' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { color: 'red', size: 'L' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'B/Apply': { 'f:spec': { 'f:size': {} } },
    },
  },
  {
    name: 'a field set by an update is not removed when an applier that never owned it omits it',
    writes: [
      { update: { metadata: meta, spec: { color: 'red' } }, manager: 'kubectl-edit' },
      { apply: { metadata: meta, spec: { size: 'L' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { color: 'red', size: 'L' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:size': {} } },
      'kubectl-edit/Update': { 'f:spec': { '.': {}, 'f:color': {} } },
    },
  },
  {
    name: 'dropping a list-map entry removes it, keeping the entries of others',
    writes: [
      {
        apply: { metadata: meta, spec: { ports: [{ containerPort: 80 }, { containerPort: 443 }] } },
        manager: 'A',
      },
      { apply: { metadata: meta, spec: { ports: [{ containerPort: 8080, name: 'alt' }] } }, manager: 'B' },
      { apply: { metadata: meta, spec: { ports: [{ containerPort: 443 }] } }, manager: 'A' },
    ],
    object: {
      metadata: meta,
      spec: { ports: [{ containerPort: 443 }, { containerPort: 8080, name: 'alt' }] },
    },
    managedFields: {
      'A/Apply': {
        'f:spec': {
          'f:ports': { 'k:{"containerPort":443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
        },
      },
      'B/Apply': {
        'f:spec': {
          'f:ports': {
            'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} },
          },
        },
      },
    },
  },
  {
    name: 'dropping a set element and a map key removes them',
    writes: [
      {
        apply: {
          metadata: { ...meta, labels: { a: '1', b: '2' } },
          spec: { tags: ['x', 'y'], settings: { k: 'v', j: 'w' } },
        },
        manager: 'A',
      },
      {
        apply: { metadata: { ...meta, labels: { a: '1' } }, spec: { tags: ['y'], settings: { j: 'w' } } },
        manager: 'A',
      },
    ],
    object: { metadata: { ...meta, labels: { a: '1' } }, spec: { tags: ['y'], settings: { j: 'w' } } },
    managedFields: {
      'A/Apply': {
        'f:metadata': { 'f:labels': { 'f:a': {} } },
        'f:spec': { 'f:settings': { 'f:j': {} }, 'f:tags': { 'v:"y"': {} } },
      },
    },
  },
  {
    name: 'dropping everything under a struct removes the struct',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' }, data: { a: 'b' } }, manager: 'A' },
      { apply: { metadata: meta, data: { a: 'b' } }, manager: 'A' },
    ],
    object: { metadata: meta, data: { a: 'b' } },
    managedFields: { 'A/Apply': { 'f:data': { 'f:a': {} } } },
  },
  {
    name: 'an applier that drops all its fields is removed from managedFields',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { size: 'S' } }, manager: 'B' },
      { apply: { metadata: meta }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { size: 'S' } },
    managedFields: { 'B/Apply': { 'f:spec': { 'f:size': {} } } },
  },
];

/**
 * Spec doc 1 §4.9 item 8: the replica-count handover. Dropping replicas before an autoscaler owns
 * it resets it to the default; the safe recipe first applies replicas alone under a private
 * manager, lets the autoscaler take it, then drops it there; the emptied private manager goes.
 */
const handover: Row[] = [
  {
    name: 'unsafe: dropping replicas before the autoscaler claimed it resets it to 1',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'deployer' },
    ],
    object: { metadata: meta, spec: { replicas: 1, image: 'nginx' } },
    managedFields: { 'deployer/Apply': { 'f:spec': { 'f:image': {} } } },
  },
  {
    name: 'step 1: the private manager applies replicas alone, sharing it',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'handover-deployer' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'deployer' },
    ],
    object: { metadata: meta, spec: { replicas: 3, image: 'nginx' } },
    managedFields: {
      'deployer/Apply': { 'f:spec': { 'f:image': {} } },
      'handover-deployer/Apply': { 'f:spec': { 'f:replicas': {} } },
    },
  },
  {
    name: 'step 2: the autoscaler writes replicas and takes it; the emptied private manager is removed',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'handover-deployer' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'deployer' },
      {
        update: { metadata: meta, spec: { replicas: 7, image: 'nginx' } },
        manager: 'autoscaler',
        subresource: 'scale',
      },
    ],
    object: { metadata: meta, spec: { replicas: 7, image: 'nginx' } },
    managedFields: {
      'deployer/Apply': { 'f:spec': { 'f:image': {} } },
      'autoscaler/Update/scale': { 'f:spec': { 'f:replicas': {} } },
    },
  },
  {
    name: 'step 2 (alt): an autoscaler that applies conflicts with the private manager until it forces',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'handover-deployer' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 7 } }, manager: 'autoscaler' },
    ],
    conflict: 'Apply failed with 1 conflict: conflict with "handover-deployer": .spec.replicas',
  },
  {
    name: 'step 3: dropping the field from the private manager after the handover leaves the value alone',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'handover-deployer' },
      { apply: { metadata: meta, spec: { image: 'nginx' } }, manager: 'deployer' },
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'autoscaler' },
      { apply: { metadata: meta }, manager: 'handover-deployer' },
    ],
    object: { metadata: meta, spec: { replicas: 3, image: 'nginx' } },
    managedFields: {
      'autoscaler/Apply': { 'f:spec': { 'f:replicas': {} } },
      'deployer/Apply': { 'f:spec': { 'f:image': {} } },
    },
  },
];

describe('dropped fields (spec doc 1 §4.9 items 2, 4b, 8)', () => {
  it.each([...cases, ...handover])('$name', (row) => {
    const r = runRow(row, widgetSchema);
    if (row.conflict !== undefined) {
      expect((r.error as Error | undefined)?.message).toBe(row.conflict);
      return;
    }
    expect(r.error).toBeUndefined();
    expect(r.object).toEqual(row.object);
    expect(r.managedFields).toEqual(row.managedFields);
  });
});

describe('nulls left by the merge are not stored', () => {
  it.each<Row>([
    {
      name: 'a granular map emptied by a dropped key disappears instead of becoming null',
      writes: [
        { apply: { metadata: meta, spec: { settings: { a: '1' } }, data: { k: 'v' } }, manager: 'A' },
        { apply: { metadata: meta, spec: { settings: { a: '1' } } }, manager: 'B' },
        { apply: { metadata: meta, spec: { color: 'x' } }, manager: 'B' },
        { apply: { metadata: meta, spec: { color: 'x' } }, manager: 'A', force: true },
      ],
      object: { metadata: meta, spec: { color: 'x' } },
      managedFields: {
        'A/Apply': { 'f:spec': { 'f:color': {} } },
        'B/Apply': { 'f:spec': { 'f:color': {} } },
      },
    },
    {
      name: 'an explicit null for a declared field is not stored; nulls inside preserved values are',
      writes: [{ apply: { metadata: meta, spec: { image: null, config: { a: null } } }, manager: 'A' }],
      object: { metadata: meta, spec: { config: { a: null } } },
      managedFields: { 'A/Apply': { 'f:spec': { 'f:config': { 'f:a': {} }, 'f:image': {} } } },
    },
  ])('$name', (row) => {
    const r = runRow(row, widgetSchema);
    expect(r.error).toBeUndefined();
    expect(r.object).toEqual(row.object);
    expect(r.managedFields).toEqual(row.managedFields);
  });
});
