import type { ApiObject } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { isApplyConflict } from './errors.js';
import { apply } from './field-manager.js';

const str: StructuralSchema = { type: 'string' };
const schemaWith = (settings: StructuralSchema): StructuralSchema => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        settings,
        ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } } },
      },
    },
  },
});
const granularMap = schemaWith({ type: 'object', additionalProperties: str });
const atomicMap = schemaWith({ type: 'object', additionalProperties: str, mapType: 'atomic' });
const V = 'example.com/v1';
const obj = (spec: unknown): ApiObject =>
  ({ apiVersion: V, kind: 'Widget', metadata: { name: 'w' }, spec }) as ApiObject;
const run = (
  live: ApiObject | undefined,
  spec: unknown,
  manager: string,
  schema: StructuralSchema,
  force = false,
) => apply(live, obj(spec), { manager, apiVersion: V, schema, force });
const fields = (o: ApiObject) =>
  Object.fromEntries((o.metadata?.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));

describe('topology changes of the schema (spec doc 1 §2.7)', () => {
  it('granular → atomic: every owner of an element co-owns the whole value, so a change conflicts with all', () => {
    const a = run(undefined, { settings: { x: '1' } }, 'A', granularMap);
    const b = run(a.object, { settings: { y: '2' } }, 'B', granularMap);
    expect(fields(b.object)).toEqual({
      A: { 'f:spec': { 'f:settings': { 'f:x': {} } } },
      B: { 'f:spec': { 'f:settings': { 'f:y': {} } } },
    });
    let err: unknown;
    try {
      run(b.object, { settings: { z: '3' } }, 'C', atomicMap);
    } catch (e) {
      err = e;
    }
    expect(isApplyConflict(err)).toBe(true);
    expect((err as Error).message).toBe(
      'Apply failed with 2 conflicts: conflicts with "A":\n- .spec.settings\nconflicts with "B":\n- .spec.settings',
    );
    const forced = run(b.object, { settings: { z: '3' } }, 'C', atomicMap, true);
    expect(forced.object.spec).toEqual({ settings: { z: '3' } });
    expect(fields(forced.object)).toEqual({ C: { 'f:spec': { 'f:settings': {} } } });
  });

  it('granular → atomic: a write that does not touch the value rewrites the old sets to the atomic form', () => {
    const a = run(undefined, { settings: { x: '1' } }, 'A', granularMap);
    const again = run(a.object, { settings: { x: '1' } }, 'A', atomicMap);
    expect(fields(again.object)).toEqual({ A: { 'f:spec': { 'f:settings': {} } } });
  });

  it('atomic → granular: no new owners are inferred, so a later change of one key does not conflict', () => {
    const a = run(undefined, { settings: { x: '1' } }, 'A', atomicMap);
    expect(fields(a.object)).toEqual({ A: { 'f:spec': { 'f:settings': {} } } });
    const b = run(a.object, { settings: { x: '2' } }, 'B', granularMap);
    expect(b.object.spec).toEqual({ settings: { x: '2' } });
    expect(fields(b.object)).toEqual({
      A: { 'f:spec': { 'f:settings': {} } },
      B: { 'f:spec': { 'f:settings': { 'f:x': {} } } },
    });
  });

  it('an unmarked list of a custom resource is atomic: element paths from a keyed past collapse', () => {
    const keyed = schemaWith(str);
    (keyed.properties?.spec?.properties as Record<string, StructuralSchema>).ports = {
      type: 'array',
      listType: 'map',
      listMapKeys: ['port'],
      items: { type: 'object', properties: { port: { type: 'integer' } } },
    };
    const a = run(undefined, { ports: [{ port: 80 }] }, 'A', keyed);
    expect(fields(a.object)).toEqual({
      A: { 'f:spec': { 'f:ports': { 'k:{"port":80}': { '.': {}, 'f:port': {} } } } },
    });
    const b = run(a.object, { ports: [{ port: 80 }] }, 'A', granularMap);
    expect(fields(b.object)).toEqual({ A: { 'f:spec': { 'f:ports': {} } } });
  });
});
