/**
 * Differential tests against upstream structured-merge-diff (Go): the same schema, objects and
 * operations as /work/shared/anchors/smd-go, whose outputs are committed in testdata/smd-go/
 * (copied from the anchor's golden/). The merge layer must match the Go library's raw output
 * exactly (objects, managed sets, FieldsV1 bytes, conflicts); the field manager must match it
 * after the API server's stripping of apiVersion, kind and server-set metadata.
 */
import { readFileSync } from 'node:fs';
import type { ApiObject } from '@orchard/meta';
import { jsonEqual as deepEqual } from '@orchard/meta/internal';
import { describe, expect, it } from 'vitest';
import type { FieldSet } from './fieldpath/field-set.js';
import { decodeFieldsV1, encodeFieldsV1, fromFieldsV1, toFieldsV1 } from './fieldpath/fields-v1.js';
import { ApplyConflictError } from './manager/errors.js';
import { apply, update } from './manager/field-manager.js';
import { serverSetFields } from './manager/managed-fields.js';
import { isMergeConflicts, type MergeConflicts } from './merge/conflicts.js';
import { applyFields, type ManagedSets, updateFields } from './merge/updater.js';
import { smdSchemaToStructural } from './testing/smd-schema.js';
import { atomOf } from './typed/atom.js';
import { toFieldSet } from './typed/to-field-set.js';

const dir = new URL('../testdata/smd-go/', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const inputs = load('inputs.json') as Record<string, ApiObject>;
const schema = smdSchemaToStructural(load('schema.json'), 'deployment');
const atom = atomOf(schema);
const V = 'apps/v1';

interface GoldenEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  fieldsType: string;
  fieldsV1: unknown;
}

/** Our managed sets in the golden's shape (sorted by manager, fieldsV1 as our exact bytes). */
function render(
  ms: ManagedSets,
): { manager: string; operation: string; apiVersion: string; fieldsV1: string }[] {
  return [...ms.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([manager, vs]) => ({
      manager,
      operation: vs.applied ? 'Apply' : 'Update',
      apiVersion: vs.apiVersion,
      fieldsV1: encodeFieldsV1(vs.set),
    }));
}
function renderGolden(g: GoldenEntry[]) {
  return g.map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    fieldsV1: JSON.stringify(e.fieldsV1),
  }));
}
function goldenSets(g: GoldenEntry[]): ManagedSets {
  return new Map(
    g.map((e) => [
      e.manager,
      { set: fromFieldsV1(e.fieldsV1), apiVersion: e.apiVersion, applied: e.operation === 'Apply' },
    ]),
  );
}

const opts = { atom };
const a = applyFields({}, inputs.a_A_apply, V, new Map(), 'A', false, opts);
const b = applyFields(a.object, inputs.b_A_apply, V, a.managers, 'A', false, opts);

describe('structured-merge-diff differential (merge layer, raw)', () => {
  it('(a) apply by A onto an empty object', () => {
    expect(render(a.managers)).toEqual(renderGolden(load('a_apply_A_onto_empty.managedFields.json')));
    expect(deepEqual(a.object, load('a_apply_A_onto_empty.object.json'))).toBe(true);
  });

  it('(b) re-apply by A with one changed leaf', () => {
    expect(render(b.managers)).toEqual(renderGolden(load('b_reapply_A_one_change.managedFields.json')));
    expect(deepEqual(b.object, load('b_reapply_A_one_change.object.json'))).toBe(true);
  });

  it('(c) apply by B of spec.replicas conflicts with A', () => {
    const golden = load('c_apply_B_conflict.result.json');
    let err: unknown;
    try {
      applyFields(b.object, inputs.c_B_apply, V, b.managers, 'B', false, opts);
    } catch (e) {
      err = e;
    }
    expect(isMergeConflicts(err)).toBe(true);
    const c = err as MergeConflicts;
    expect(c.message).toBe(golden.result.error);
    expect(c.conflicts.map((x) => ({ manager: x.manager, path: x.path.map(String).join('') }))).toEqual(
      golden.result.conflicts,
    );
    // The failed apply left the managers untouched.
    expect(render(b.managers)).toEqual(renderGolden(golden.managedFieldsUnchanged));
  });

  it("(c') the same apply with force moves spec.replicas to B", () => {
    const r = applyFields(b.object, inputs.c_B_apply, V, b.managers, 'B', true, opts);
    expect(render(r.managers)).toEqual(renderGolden(load('c_apply_B_force.managedFields.json')));
    expect(deepEqual(r.object, load('c_apply_B_force.object.json'))).toBe(true);
  });

  it('(d) update by C of three leaves', () => {
    const r = updateFields(b.object, inputs.d_C_update, V, b.managers, 'C', opts);
    expect(render(r.managers)).toEqual(renderGolden(load('d_update_C_three_fields.managedFields.json')));
    expect(deepEqual(r.object, load('d_update_C_three_fields.object.json'))).toBe(true);
  });

  it('(e) field set of object A, byte for byte', () => {
    const golden = load('e_toFieldSet_objectA.fieldsV1.json');
    expect(encodeFieldsV1(toFieldSet(inputs.a_A_apply, atom))).toBe(JSON.stringify(golden));
  });

  it('FieldsV1 decode then encode round-trips every golden set', () => {
    for (const f of [
      'a_apply_A_onto_empty',
      'b_reapply_A_one_change',
      'c_apply_B_force',
      'd_update_C_three_fields',
    ]) {
      for (const e of load(`${f}.managedFields.json`) as GoldenEntry[]) {
        const text = JSON.stringify(e.fieldsV1);
        expect(encodeFieldsV1(decodeFieldsV1(text))).toBe(text);
        expect(JSON.stringify(toFieldsV1(fromFieldsV1(e.fieldsV1)))).toBe(text);
      }
    }
  });

  it('golden sets decode to the sets our updater produced', () => {
    const g = goldenSets(load('b_reapply_A_one_change.managedFields.json'));
    expect((g.get('A') as { set: FieldSet }).set.equals((b.managers.get('A') as { set: FieldSet }).set)).toBe(
      true,
    );
  });
});

/** The golden entries as the API server stores them: stripped sets, manager names unchanged. */
function stripped(g: GoldenEntry[]) {
  return g
    .map((e) => ({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      fieldsV1: fromFieldsV1(e.fieldsV1).difference(serverSetFields),
    }))
    .filter((e) => !e.fieldsV1.isEmpty())
    .map((e) => ({ ...e, fieldsV1: encodeFieldsV1(e.fieldsV1) }))
    .sort((x, y) =>
      x.operation < y.operation ? -1 : x.operation > y.operation ? 1 : x.manager < y.manager ? -1 : 1,
    );
}
function ours(entries: { manager?: string; operation?: string; apiVersion?: string; fieldsV1?: unknown }[]) {
  return entries.map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    fieldsV1: JSON.stringify(e.fieldsV1),
  }));
}
const withoutMf = (o: ApiObject) => {
  const { managedFields: _, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
};

describe('structured-merge-diff differential (field manager, after server stripping)', () => {
  const now = '2026-01-01T00:00:00Z';
  const base = { apiVersion: V, kind: 'Deployment', schema, now };
  const ma = apply(undefined, inputs.a_A_apply as ApiObject, { ...base, manager: 'A' });
  const mb = apply(ma.object, inputs.b_A_apply as ApiObject, { ...base, manager: 'A' });

  it('(a) and (b) as stored managedFields', () => {
    expect(ours(ma.managedFields)).toEqual(stripped(load('a_apply_A_onto_empty.managedFields.json')));
    expect(ours(mb.managedFields)).toEqual(stripped(load('b_reapply_A_one_change.managedFields.json')));
    expect(deepEqual(withoutMf(mb.object), load('b_reapply_A_one_change.object.json'))).toBe(true);
    expect(mb.managedFields[0]?.time).toBe(now);
  });

  it('(c) conflict as the API server words it', () => {
    expect(() => apply(mb.object, inputs.c_B_apply as ApiObject, { ...base, manager: 'B' })).toThrow(
      ApplyConflictError,
    );
    try {
      apply(mb.object, inputs.c_B_apply as ApiObject, { ...base, manager: 'B' });
    } catch (e) {
      expect((e as Error).message).toBe('Apply failed with 1 conflict: conflict with "A": .spec.replicas');
      expect((e as ApplyConflictError).causes).toEqual([
        { reason: 'FieldManagerConflict', message: 'conflict with "A"', field: '.spec.replicas' },
      ]);
    }
  });

  it("(c') and (d) as stored managedFields", () => {
    const cf = apply(mb.object, inputs.c_B_apply as ApiObject, { ...base, manager: 'B', force: true });
    expect(ours(cf.managedFields)).toEqual(stripped(load('c_apply_B_force.managedFields.json')));
    const next = {
      ...(inputs.d_C_update as ApiObject),
      metadata: { ...inputs.d_C_update?.metadata, managedFields: mb.object.metadata?.managedFields },
    };
    const d = update(mb.object, next as ApiObject, { ...base, manager: 'C' });
    expect(ours(d.managedFields)).toEqual(stripped(load('d_update_C_three_fields.managedFields.json')));
    expect(deepEqual(withoutMf(d.object), load('d_update_C_three_fields.object.json'))).toBe(true);
  });
});
