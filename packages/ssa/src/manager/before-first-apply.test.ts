import type { ApiObject } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { apply } from './field-manager.js';

describe('objects written without managedFields (upstream before-first-apply)', () => {
  const V = 'v1';
  const schema: StructuralSchema = {
    type: 'object',
    properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
  };
  const live: ApiObject = {
    apiVersion: V,
    kind: 'ConfigMap',
    metadata: { name: 'a', uid: 'u', resourceVersion: '3' },
    data: { color: 'red', size: 'L' },
  };

  it('the first apply assigns the existing fields to a before-first-apply Update entry', () => {
    const r = apply(
      live,
      { apiVersion: V, kind: 'ConfigMap', metadata: { name: 'a' }, data: { size: 'L' } },
      { manager: 'A', apiVersion: V, schema, now: '2026-01-01T00:00:00Z' },
    );
    expect(r.managedFields.map((e) => [e.manager, e.operation, e.apiVersion, e.fieldsV1])).toEqual([
      ['A', 'Apply', 'v1', { 'f:data': { 'f:size': {} } }],
      ['before-first-apply', 'Update', 'v1', { 'f:data': { '.': {}, 'f:color': {}, 'f:size': {} } }],
    ]);
    expect(r.object.data).toEqual({ color: 'red', size: 'L' });
  });

  it('so the first apply changing an existing value conflicts with before-first-apply', () => {
    expect(() =>
      apply(
        live,
        { apiVersion: V, kind: 'ConfigMap', metadata: { name: 'a' }, data: { color: 'blue' } },
        { manager: 'A', apiVersion: V, schema },
      ),
    ).toThrow('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.color');
  });

  it('an apply that creates the object has no before-first-apply entry', () => {
    const r = apply(
      undefined,
      { apiVersion: V, kind: 'ConfigMap', metadata: { name: 'a' }, data: { size: 'L' } },
      { manager: 'A', apiVersion: V, schema },
    );
    expect(r.managedFields.map((e) => e.manager)).toEqual(['A']);
  });
});
