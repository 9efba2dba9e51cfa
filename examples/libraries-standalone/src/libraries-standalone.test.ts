import { describe, expect, it } from 'vitest';
import { celDemo, patchDemo, schemaDemo, ssaDemo } from './main.js';

describe('examples/libraries-standalone', () => {
  it('@orchard/schema: structural check, prune, default, validate', () => {
    const s = schemaDemo();
    expect(s.structuralProblems).toEqual([]);
    expect(s.notStructural).toEqual([
      'openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
    expect(s.pruned).toEqual(['spec.bogus']);
    expect(s.defaulted).toEqual({ color: 'pink', replicas: 1, maxReplicas: 10 });
    expect(s.errors).toEqual([
      'spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"',
    ]);
  });

  it('@orchard/cel: evaluate, quantities, compile-time type errors, validation rules', () => {
    const c = celDemo();
    expect(c.ok).toBe(true);
    expect(c.tooMany).toBe(false);
    expect(c.quantity).toBe(true);
    expect(c.compileError).toMatch(/^type-check: no such overload/);
    expect(c.ruleErrors).toEqual([]);
    expect(c.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: '',
        message: 'Invalid value: "object": replicas must not exceed maxReplicas',
      },
    ]);
  });

  it('@orchard/patch: strategic merge by key vs JSON merge patch, $patch: delete', () => {
    expect(patchDemo()).toEqual({
      strategic: ['app=nginx:2', 'proxy=envoy:1'],
      merge: ['app=nginx:2'],
      deleted: ['app=nginx:1'],
    });
  });

  it('@orchard/ssa: two managers share a list-map, a third conflicts, force moves ownership', () => {
    const a = ssaDemo();
    expect(a.conflict).toBe('Apply failed with 1 conflict: conflict with "platform": .spec.replicas');
    expect(a.replicas).toBe(5);
    expect(a.containers).toEqual(['app', 'proxy']);
    expect(a.managers).toEqual(['autoscaler:Apply', 'injector:Apply', 'platform:Apply']);
    const platform = a.managedFields.find((m) => m.manager === 'platform');
    expect(JSON.stringify(platform?.fieldsV1)).not.toContain('f:replicas');
  });
});
