import type { ApiObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { widgetSchema } from '../testing/fixtures.js';
import { apply, update } from './field-manager.js';

const opts = { apiVersion: 'example.com/v1', schema: widgetSchema, now: '2026-01-01T00:00:00Z' };
const base = (): ApiObject => {
  const a = apply(
    undefined,
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { color: 'red', size: 'L' },
    },
    { ...opts, manager: 'A' },
  );
  return a.object;
};
const withMf = (o: ApiObject, managedFields: unknown, spec?: unknown): ApiObject =>
  ({ ...o, ...(spec ? { spec } : {}), metadata: { ...o.metadata, managedFields } }) as ApiObject;

describe('managedFields in non-apply writes (spec doc 1 §4.9 item 10)', () => {
  const cases: {
    name: string;
    managedFields: unknown;
    spec?: unknown;
    subresource?: string;
    expected: Record<string, unknown> | undefined;
  }[] = [
    { name: 'one empty entry resets them', managedFields: [{}], expected: undefined },
    {
      name: 'the reset is processed first: the writer owns every field it changes in the same request',
      managedFields: [{}],
      spec: { color: 'blue', size: 'L' },
      expected: { 'B/Update': { 'f:spec': { 'f:color': {} } } },
    },
    {
      name: 'an empty list does not reset',
      managedFields: [],
      expected: { 'A/Apply': { 'f:spec': { 'f:color': {}, 'f:size': {} } } },
    },
    {
      name: 'absent managedFields keep the live ones',
      managedFields: undefined,
      expected: { 'A/Apply': { 'f:spec': { 'f:color': {}, 'f:size': {} } } },
    },
    {
      name: 'a valid explicit list becomes the new state',
      managedFields: [
        {
          manager: 'X',
          operation: 'Apply',
          apiVersion: 'example.com/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:size': {} } },
        },
      ],
      expected: { 'X/Apply': { 'f:spec': { 'f:size': {} } } },
    },
    {
      name: 'an invalid list is ignored (live managedFields kept)',
      managedFields: [
        {
          manager: 'X',
          operation: 'Bogus',
          apiVersion: 'example.com/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {},
        },
      ],
      expected: { 'A/Apply': { 'f:spec': { 'f:color': {}, 'f:size': {} } } },
    },
    {
      name: 'a sub-resource write cannot reset them',
      managedFields: [{}],
      subresource: 'status',
      expected: { 'A/Apply': { 'f:spec': { 'f:color': {}, 'f:size': {} } } },
    },
  ];
  it.each(cases)('$name', ({ managedFields, spec, subresource, expected }) => {
    const live = base();
    const r = update(live, withMf(live, managedFields, spec), {
      ...opts,
      manager: 'B',
      ...(subresource ? { subresource } : {}),
    });
    const got = Object.fromEntries(r.managedFields.map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
    if (expected === undefined) {
      expect(r.managedFields).toEqual([]);
      expect(r.object.metadata?.managedFields).toBeUndefined();
    } else expect(got).toEqual(expected);
  });

  it('an apply body with managedFields is rejected', () => {
    const live = base();
    expect(() =>
      apply(
        live,
        {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name: 'w', managedFields: [] },
          spec: {},
        },
        { ...opts, manager: 'A' },
      ),
    ).toThrow('metadata.managedFields must be nil');
  });
});
