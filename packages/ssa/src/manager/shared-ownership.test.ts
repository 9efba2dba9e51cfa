import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { type Row, runRow } from '../testing/table.js';

const meta = { name: 'w' };
const cases: Row[] = [
  {
    name: 'two appliers setting the same value share the field',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'L' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'B' },
    ],
    object: { metadata: meta, spec: { color: 'red', size: 'L' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {}, 'f:size': {} } },
      'B/Apply': { 'f:spec': { 'f:color': {} } },
    },
  },
  {
    name: 'a later change of a shared field by one co-owner conflicts with the other',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { color: 'blue' } }, manager: 'A' },
    ],
    conflict: 'Apply failed with 1 conflict: conflict with "B": .spec.color',
  },
  {
    name: 'a co-owner gives up ownership by applying without the field; the value stays',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red', size: 'S' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { size: 'S' } }, manager: 'B' },
    ],
    object: { metadata: meta, spec: { color: 'red', size: 'S' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'B/Apply': { 'f:spec': { 'f:size': {} } },
    },
  },
  {
    name: 'after the other co-owner left, the remaining owner changes the field freely',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red', size: 'S' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { size: 'S' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { color: 'green' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { color: 'green', size: 'S' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'B/Apply': { 'f:spec': { 'f:size': {} } },
    },
  },
  {
    name: 'an applier setting the value an updater wrote shares it with the updater',
    writes: [
      { update: { metadata: meta, spec: { color: 'red' } }, manager: 'kubectl-edit' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
    ],
    object: { metadata: meta, spec: { color: 'red' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'kubectl-edit/Update': { 'f:spec': { '.': {}, 'f:color': {} } },
    },
  },
  {
    name: 'shared list-map entries: each applier owns the entry and the key fields it set',
    writes: [
      { apply: { metadata: meta, spec: { ports: [{ containerPort: 80, name: 'http' }] } }, manager: 'A' },
      {
        apply: {
          metadata: meta,
          spec: { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] },
        },
        manager: 'B',
      },
    ],
    object: {
      metadata: meta,
      spec: { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] },
    },
    managedFields: {
      'A/Apply': {
        'f:spec': {
          'f:ports': {
            'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} },
          },
        },
      },
      'B/Apply': {
        'f:spec': {
          'f:ports': {
            'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} },
            'k:{"containerPort":443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
          },
        },
      },
    },
  },
];

describe('shared ownership (spec doc 1 §4.9 items 4c, 5; §3 field ownership states)', () => {
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
});
