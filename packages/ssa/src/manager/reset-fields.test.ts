import type { ApiObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { FieldSet } from '../fieldpath/field-set.js';
import { makePath } from '../fieldpath/path-element.js';
import { widgetSchema } from '../testing/fixtures.js';
import { apply, update } from './field-manager.js';

/**
 * Upstream's IgnoredFields (a strategy's reset fields): an apply to the main resource neither owns
 * nor conflicts on `status`; a status write neither owns nor conflicts on `spec`.
 */
const V = 'example.com/v1';
const status = FieldSet.of(makePath('status'));
const spec = FieldSet.of(makePath('spec'));
const w = (body: object): ApiObject =>
  ({ apiVersion: V, kind: 'Widget', metadata: { name: 'w' }, ...body }) as ApiObject;
const fields = (o: ApiObject) =>
  Object.fromEntries(
    (o.metadata?.managedFields ?? []).map((e) => [
      `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`,
      e.fieldsV1,
    ]),
  );

describe('reset fields are ignored by the field manager', () => {
  const base = { apiVersion: V, schema: widgetSchema };
  const created = apply(undefined, w({ spec: { color: 'red' } }), {
    ...base,
    manager: 'A',
    ignoredFields: status,
  }).object;
  const withStatus = update(created, w({ spec: { color: 'red' }, status: { phase: 'Ready' } }), {
    ...base,
    manager: 'controller',
    subresource: 'status',
    ignoredFields: spec,
  }).object;

  it('a status write owns status only', () => {
    expect(fields(withStatus)).toEqual({
      'A/Apply': { 'f:spec': { 'f:color': {} } },
      'controller/Update/status': { 'f:status': { '.': {}, 'f:phase': {} } },
    });
  });

  it('an apply carrying status takes no ownership of it and does not conflict with the status writer', () => {
    const r = apply(withStatus, w({ spec: { color: 'red' }, status: { phase: 'Pending' } }), {
      ...base,
      manager: 'A',
      ignoredFields: status,
    });
    expect(fields(r.object)).toEqual(fields(withStatus));
  });

  it('without the reset fields the same apply conflicts (what the option prevents)', () => {
    expect(() =>
      apply(withStatus, w({ spec: { color: 'red' }, status: { phase: 'Pending' } }), {
        ...base,
        manager: 'A',
      }),
    ).toThrow(
      'Apply failed with 1 conflict: conflict with "controller" with subresource "status" using example.com/v1: .status.phase',
    );
  });

  it('a status write that also changes spec takes no ownership of spec', () => {
    const r = update(withStatus, w({ spec: { color: 'blue' }, status: { phase: 'Done' } }), {
      ...base,
      manager: 'controller',
      subresource: 'status',
      ignoredFields: spec,
    });
    expect(fields(r.object)['controller/Update/status']).toEqual({ 'f:status': { '.': {}, 'f:phase': {} } });
    expect(fields(r.object)['A/Apply']).toEqual({ 'f:spec': { 'f:color': {} } });
  });
});
