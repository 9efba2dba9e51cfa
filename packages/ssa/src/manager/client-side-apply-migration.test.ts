import type { ApiObject } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { isApplyConflict } from './errors.js';
import { apply, lastAppliedAnnotationKey, update } from './field-manager.js';

/**
 * Spec doc 1 §4.9 item 11: `kubectl apply --server-side` (manager `kubectl`) over an object last
 * written by client-side `kubectl apply` (manager `kubectl-client-side-apply`, Update entries,
 * the last-applied annotation): fields the annotation holds with the live value do not conflict;
 * others do; the annotation is rewritten from each server-side apply so a downgrade still works.
 */
const V = 'v1';
const schema: StructuralSchema = {
  type: 'object',
  properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
};
const cm = (data: Record<string, string>, annotations?: Record<string, string>): ApiObject =>
  ({
    apiVersion: V,
    kind: 'ConfigMap',
    metadata: { name: 'app', namespace: 'default', ...(annotations ? { annotations } : {}) },
    data,
  }) as ApiObject;
const lastApplied = (data: Record<string, string>) =>
  `${JSON.stringify({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { annotations: {}, name: 'app', namespace: 'default' } })}\n`;

/** What client-side apply leaves: created by kubectl-client-side-apply with the annotation. */
function clientSideApplied(data: Record<string, string>): ApiObject {
  const body = cm(data, { [lastAppliedAnnotationKey]: lastApplied(data) });
  return update(undefined, body, { manager: 'kubectl-client-side-apply', apiVersion: V, schema }).object;
}

describe('client-side apply → server-side apply migration', () => {
  it('kubectl takes over the fields of the last-applied configuration without conflicts', () => {
    const live = clientSideApplied({ color: 'red', size: 'L' });
    const r = apply(live, cm({ color: 'green', size: 'L' }), {
      manager: 'kubectl',
      apiVersion: V,
      kind: 'ConfigMap',
      schema,
    });
    expect(r.object.data).toEqual({ color: 'green', size: 'L' });
    const byManager = Object.fromEntries(r.managedFields.map((e) => [e.manager, e.fieldsV1]));
    expect(byManager.kubectl).toEqual({ 'f:data': { 'f:color': {}, 'f:size': {} } });
    expect(byManager['kubectl-client-side-apply']).toEqual({
      'f:data': { '.': {}, 'f:size': {} },
      'f:metadata': {
        'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
      },
    });
  });

  it('keeps the last-applied annotation up to date with the server-side intent', () => {
    const live = clientSideApplied({ color: 'red' });
    const r = apply(live, cm({ color: 'green' }), { manager: 'kubectl', apiVersion: V, schema });
    const ann = (r.object.metadata?.annotations as Record<string, string> | undefined)?.[
      lastAppliedAnnotationKey
    ];
    expect(ann).toBe(
      `${JSON.stringify({ apiVersion: 'v1', data: { color: 'green' }, kind: 'ConfigMap', metadata: { name: 'app', namespace: 'default' } })}\n`,
    );
  });

  it('a field changed since the last client-side apply (not in the annotation with the live value) conflicts', () => {
    const live0 = clientSideApplied({ color: 'red' });
    const live = update(
      live0,
      { ...live0, data: { color: 'red', size: 'XL' } },
      { manager: 'kubectl-edit', apiVersion: V, schema },
    ).object;
    let err: unknown;
    try {
      apply(live, cm({ color: 'green', size: 'S' }), { manager: 'kubectl', apiVersion: V, schema });
    } catch (e) {
      err = e;
    }
    expect(isApplyConflict(err)).toBe(true);
    expect((err as Error).message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.size',
    );
  });

  it('another manager name does not migrate: the client-side fields conflict', () => {
    const live = clientSideApplied({ color: 'red' });
    expect(() => apply(live, cm({ color: 'green' }), { manager: 'mytool', apiVersion: V, schema })).toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.color',
    );
  });

  it('objects without the annotation are not touched by the kubectl rules', () => {
    const live = update(undefined, cm({ color: 'red' }), {
      manager: 'kubectl-create',
      apiVersion: V,
      schema,
    }).object;
    expect(() => apply(live, cm({ color: 'green' }), { manager: 'kubectl', apiVersion: V, schema })).toThrow(
      'conflict with "kubectl-create" using v1: .data.color',
    );
    const same = apply(live, cm({ color: 'red' }), { manager: 'kubectl', apiVersion: V, schema });
    expect(same.object.metadata?.annotations).toBeUndefined();
  });
});
