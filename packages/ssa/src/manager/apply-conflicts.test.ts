import { describe, expect, it } from 'vitest';
import { formatPath, makePath, PathElement } from '../fieldpath/path-element.js';
import { widgetSchema } from '../testing/fixtures.js';
import { runRow } from '../testing/table.js';
import { ApplyConflictError, formatApplyConflictMessage, isApplyConflict } from './errors.js';
import { managerKey, printManager } from './managed-fields.js';

const meta = { name: 'w' };

describe('apply conflict errors (spec doc 1 §7: 409; kubectl-wire §5)', () => {
  const cases: {
    name: string;
    conflicts: { manager: string; path: (string | number | Record<string, unknown>)[] }[];
    message: string;
  }[] = [
    {
      name: 'one conflict with an updater prints its version',
      conflicts: [
        {
          manager: managerKey({
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'v1',
          }),
          path: ['data', 'color'],
        },
      ],
      message:
        'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.color',
    },
    {
      name: 'one conflict with an applier prints only its name',
      conflicts: [{ manager: managerKey({ manager: 'A', operation: 'Apply' }), path: ['spec', 'replicas'] }],
      message: 'Apply failed with 1 conflict: conflict with "A": .spec.replicas',
    },
    {
      name: 'a sub-resource manager is named with it',
      conflicts: [
        {
          manager: managerKey({
            manager: 'ctl',
            operation: 'Update',
            apiVersion: 'v1',
            subresource: 'status',
          }),
          path: ['status', 'phase'],
        },
      ],
      message:
        'Apply failed with 1 conflict: conflict with "ctl" with subresource "status" using v1: .status.phase',
    },
    {
      name: 'several conflicts are grouped by manager, managers sorted',
      conflicts: [
        { manager: managerKey({ manager: 'B', operation: 'Apply' }), path: ['spec', 'size'] },
        { manager: managerKey({ manager: 'A', operation: 'Apply' }), path: ['spec', 'color'] },
        {
          manager: managerKey({ manager: 'A', operation: 'Apply' }),
          path: ['spec', 'ports', { containerPort: 80, protocol: 'TCP' }, 'name'],
        },
      ],
      message:
        'Apply failed with 3 conflicts: conflicts with "A":\n- .spec.color\n- .spec.ports[containerPort=80,protocol="TCP"].name\nconflicts with "B":\n- .spec.size',
    },
  ];
  it.each(cases)('$name', ({ conflicts, message }) => {
    const cs = conflicts.map((c) => ({ manager: c.manager, path: makePath(...c.path) }));
    expect(formatApplyConflictMessage(cs)).toBe(message);
    const e = new ApplyConflictError(cs);
    expect(e.message).toBe(message);
    expect(isApplyConflict(e)).toBe(true);
    expect(e.causes.map((c) => c.field)).toEqual(cs.map((c) => c.path.map(String).join('')));
  });

  it('carries Status causes naming each field and its manager', () => {
    const r = runRow(
      {
        name: 'two fields, two managers',
        writes: [
          { apply: { metadata: meta, spec: { color: 'red' } }, manager: 'A' },
          { update: { metadata: meta, spec: { color: 'red', size: 'S' } }, manager: 'kubectl-edit' },
          { apply: { metadata: meta, spec: { color: 'blue', size: 'M' } }, manager: 'B' },
        ],
      },
      widgetSchema,
    );
    const e = r.error as ApplyConflictError;
    expect(isApplyConflict(e)).toBe(true);
    expect(e.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "A"', field: '.spec.color' },
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-edit" using example.com/v1',
        field: '.spec.size',
      },
    ]);
    expect(e.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "A":\n- .spec.color\nconflicts with "kubectl-edit" using example.com/v1:\n- .spec.size',
    );
  });

  it('set values, atomic-list indexes and bare manager names print as upstream', () => {
    expect(formatPath([PathElement.field('spec'), PathElement.field('tags'), PathElement.value('x')])).toBe(
      '.spec.tags[="x"]',
    );
    expect(formatPath([PathElement.field('args'), PathElement.index(0)])).toBe('.args[0]');
    expect(printManager('not-a-key')).toBe('"not-a-key"');
  });

  it('isApplyConflict rejects other errors', () => {
    expect(isApplyConflict(new Error('x'))).toBe(false);
    expect(isApplyConflict(undefined)).toBe(false);
  });
});
