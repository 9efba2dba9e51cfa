import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { type Row, runRow } from '../testing/table.js';

const meta = { name: 'w' };
const cases: Row[] = [
  {
    name: 'without force a different value on a field owned by another applier conflicts',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { replicas: 5 } }, manager: 'B' },
    ],
    conflict: 'Apply failed with 1 conflict: conflict with "A": .spec.replicas',
  },
  {
    name: 'force overwrites the value, moves ownership and removes the field from the previous owner',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3, image: 'nginx' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { replicas: 5 } }, manager: 'B', force: true },
    ],
    object: { metadata: meta, spec: { replicas: 5, image: 'nginx' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:image': {} } },
      'B/Apply': { 'f:spec': { 'f:replicas': {} } },
    },
  },
  {
    name: 'force takes the field from every co-owner',
    writes: [
      { apply: { metadata: meta, spec: { color: 'red', size: 'S' } }, manager: 'A' },
      { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'B' },
      { apply: { metadata: meta, spec: { color: 'blue' } }, manager: 'C', force: true },
    ],
    object: { metadata: meta, spec: { color: 'blue', size: 'S' } },
    managedFields: {
      'A/Apply': { 'f:spec': { 'f:size': {} } },
      'C/Apply': { 'f:spec': { 'f:color': {} } },
    },
  },
  {
    name: 'a manager left with nothing after a forced apply is removed',
    writes: [
      { apply: { metadata: meta, spec: { replicas: 3 } }, manager: 'A' },
      { apply: { metadata: meta, spec: { replicas: 4 } }, manager: 'B', force: true },
    ],
    object: { metadata: meta, spec: { replicas: 4 } },
    managedFields: { 'B/Apply': { 'f:spec': { 'f:replicas': {} } } },
  },
  {
    name: 'force on a field owned by an updater (kubectl client-side apply) moves it',
    writes: [
      { update: { metadata: meta, data: { color: 'red', size: 'L' } }, manager: 'kubectl-client-side-apply' },
      { apply: { metadata: meta, data: { color: 'green' } }, manager: 'kubectl', force: true },
    ],
    object: { metadata: meta, data: { color: 'green', size: 'L' } },
    managedFields: {
      'kubectl/Apply': { 'f:data': { 'f:color': {} } },
      'kubectl-client-side-apply/Update': { 'f:data': { '.': {}, 'f:size': {} } },
    },
  },
  {
    name: 'an atomic struct is one field: changing any part conflicts with its owner',
    writes: [
      { apply: { metadata: meta, spec: { selector: { matchLabels: { app: 'a' } } } }, manager: 'A' },
      { apply: { metadata: meta, spec: { selector: { matchLabels: { app: 'b' } } } }, manager: 'B' },
    ],
    conflict: 'Apply failed with 1 conflict: conflict with "A": .spec.selector',
  },
  {
    name: 'an unmarked list of a custom resource is atomic: force replaces it whole',
    writes: [
      { apply: { metadata: meta, spec: { args: ['--a', '--b'] } }, manager: 'A' },
      { apply: { metadata: meta, spec: { args: ['--c'] } }, manager: 'B', force: true },
    ],
    object: { metadata: meta, spec: { args: ['--c'] } },
    managedFields: { 'B/Apply': { 'f:spec': { 'f:args': {} } } },
  },
];

describe('force apply (spec doc 1 §4.9 items 3, 4a)', () => {
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
