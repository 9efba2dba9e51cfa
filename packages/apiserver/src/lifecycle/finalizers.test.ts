import { describe, expect, it } from 'vitest';
import { gcFinalizers } from './deletion.js';
import { shouldDeleteDuringUpdate } from './finalizers.js';
import { parseObjectKey } from './observed.js';

const obj = (meta: Record<string, unknown>) => ({ metadata: { name: 'x', ...meta } });

describe('shouldDeleteDuringUpdate (upstream generic store)', () => {
  const ts = '2026-01-01T00:00:00Z';
  it.each([
    [
      'last finalizer removed while terminating',
      { finalizers: ['a'], deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      { deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      true,
    ],
    [
      'finalizers remain',
      { finalizers: ['a', 'b'], deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      { finalizers: ['b'], deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      false,
    ],
    ['not terminating', { finalizers: ['a'] }, {}, false],
    [
      'had no finalizers',
      { deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      { deletionTimestamp: ts, deletionGracePeriodSeconds: 0 },
      false,
    ],
    [
      'grace period not zero (namespaces)',
      { finalizers: ['orphan'], deletionTimestamp: ts },
      { deletionTimestamp: ts },
      false,
    ],
  ])('%s', (_name, old, next, want) => {
    expect(shouldDeleteDuringUpdate(obj(next), obj(old))).toBe(want);
  });
});

describe('gcFinalizers (upstream shouldOrphanDependents / shouldDeleteDependents)', () => {
  it.each([
    [[], {}, false, []],
    [[], { propagationPolicy: 'Background' }, false, []],
    [[], { propagationPolicy: 'Foreground' }, true, ['foregroundDeletion']],
    [[], { propagationPolicy: 'Orphan' }, true, ['orphan']],
    [[], { orphanDependents: true }, true, ['orphan']],
    [[], { orphanDependents: false }, false, []],
    [['x', 'orphan'], { propagationPolicy: 'Foreground' }, true, ['x', 'foregroundDeletion']],
    [['x', 'foregroundDeletion'], {}, false, ['x', 'foregroundDeletion']],
    [['x', 'foregroundDeletion'], { propagationPolicy: 'Background' }, true, ['x']],
  ] as const)('%j with %j → changed=%s %j', (finalizers, opts, changed, want) => {
    const r = gcFinalizers(obj({ finalizers: [...finalizers] }), opts as never);
    expect(r.changed).toBe(changed);
    expect(r.finalizers).toEqual(want);
  });
});

describe('parseObjectKey', () => {
  it('splits namespaced and cluster-scoped keys, and refuses other shapes', () => {
    expect(parseObjectKey('/core/configmaps/default/a')).toEqual({
      group: '',
      resource: 'configmaps',
      namespace: 'default',
      name: 'a',
    });
    expect(parseObjectKey('/apps/deployments/ns/d')?.group).toBe('apps');
    expect(parseObjectKey('/core/namespaces/ns')).toEqual({
      group: '',
      resource: 'namespaces',
      namespace: '',
      name: 'ns',
    });
    expect(parseObjectKey('/x')).toBeUndefined();
    expect(parseObjectKey('core/a/b/c')).toBeUndefined();
  });
});
