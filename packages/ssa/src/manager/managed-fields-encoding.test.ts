import type { ApiObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { update } from './field-manager.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerKey,
  parseManagerKey,
} from './managed-fields.js';

describe('managedFields entries (spec doc 1 §2.6)', () => {
  it('manager keys: apiVersion only for updates, subresource when set', () => {
    expect(managerKey({ manager: 'a', operation: 'Apply', apiVersion: 'v1' })).toBe(
      '{"manager":"a","operation":"Apply"}',
    );
    expect(managerKey({ manager: 'a', operation: 'Update', apiVersion: 'v1', subresource: 'status' })).toBe(
      '{"manager":"a","operation":"Update","apiVersion":"v1","subresource":"status"}',
    );
    expect(parseManagerKey('{"manager":"a","operation":"Update","apiVersion":"v1"}')).toEqual({
      manager: 'a',
      operation: 'Update',
      apiVersion: 'v1',
    });
  });

  it('sorts Apply before Update, then by time, manager, apiVersion, subresource; writes the upstream field order', () => {
    const entries = [
      {
        manager: 'z',
        operation: 'Update' as const,
        apiVersion: 'v1',
        time: '2026-01-01T00:00:01Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:a': {} },
      },
      {
        manager: 'b',
        operation: 'Update' as const,
        apiVersion: 'v1',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:b': {} },
      },
      {
        manager: 'y',
        operation: 'Apply' as const,
        apiVersion: 'v1',
        time: '2026-01-01T00:00:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:c': {} },
      },
      {
        manager: 'a',
        operation: 'Update' as const,
        apiVersion: 'v2',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:d': {} },
        subresource: 'status',
      },
    ];
    const out = encodeManagedFields(decodeManagedFields(entries));
    expect(out.map((e) => e.manager)).toEqual(['y', 'a', 'b', 'z']);
    expect(Object.keys(out[1] as object)).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
      'subresource',
    ]);
  });

  const bad: { name: string; entry: Record<string, unknown>; message: string }[] = [
    {
      name: 'operation',
      entry: { operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' },
      message: 'operation must be `Apply` or `Update`',
    },
    {
      name: 'apiVersion',
      entry: { operation: 'Apply', fieldsType: 'FieldsV1' },
      message: 'apiVersion must not be empty',
    },
    {
      name: 'fieldsType',
      entry: { operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV2' },
      message: 'invalid fieldsType "FieldsV2" in managed fields entry 0',
    },
    {
      name: 'missing fieldsType',
      entry: { operation: 'Apply', apiVersion: 'v1' },
      message: 'missing fieldsType in managed fields entry 0',
    },
  ];
  it.each(bad)('rejects an entry with a bad $name', ({ entry, message }) => {
    expect(() => decodeManagedFields([entry])).toThrow(message);
  });

  it('the reset form is exactly one empty entry', () => {
    expect(isResetManagedFields([{}])).toBe(true);
    expect(isResetManagedFields([])).toBe(false);
    expect(isResetManagedFields([{}, {}])).toBe(false);
    expect(isResetManagedFields([{ manager: 'a' }])).toBe(false);
    expect(isResetManagedFields(undefined)).toBe(false);
  });

  it('keeps at most 10 update managers: the oldest merge into ancient-changes (upstream capManagersManager)', () => {
    let obj: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} };
    let live: ApiObject | undefined;
    for (let i = 0; i < 12; i++) {
      obj = { ...obj, data: { ...(obj.data as object), [`k${i}`]: 'v' } };
      const r = update(live, obj, {
        manager: `m${String(i).padStart(2, '0')}`,
        apiVersion: 'v1',
        now: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      });
      live = r.object;
      obj = r.object;
    }
    const mf = live?.metadata?.managedFields ?? [];
    expect(mf).toHaveLength(10);
    expect(mf[0]?.manager).toBe('ancient-changes');
    expect(mf[0]?.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
    expect(mf[0]?.time).toBe('2026-01-01T00:00:02Z');
    expect(mf.slice(1).map((e) => e.manager)).toEqual([
      'm03',
      'm04',
      'm05',
      'm06',
      'm07',
      'm08',
      'm09',
      'm10',
      'm11',
    ]);
  });
});
