/**
 * More differential tests against upstream structured-merge-diff (Go): sequences of applies and
 * updates by several managers over a schema with every merge shape (testdata/smd-go-extra:
 * scenarios.json, replayed by the Go library with generate.sh into results.json). After every step,
 * our merge layer must produce the same object, the same managed sets (FieldsV1 bytes) or the same
 * conflict error text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeFieldsV1 } from './fieldpath/fields-v1.js';
import { deepEqual } from './fieldpath/value.js';
import { isMergeConflicts } from './merge/conflicts.js';
import { applyFields, type ManagedSets, updateFields } from './merge/updater.js';
import { type SmdSchema, smdSchemaToStructural } from './testing/smd-schema.js';
import { atomOf } from './typed/atom.js';

const dir = new URL('../testdata/smd-go-extra/', import.meta.url);
const input = JSON.parse(readFileSync(new URL('scenarios.json', dir), 'utf8')) as {
  schema: SmdSchema;
  root: string;
  scenarios: {
    name: string;
    steps: { op: 'apply' | 'update'; manager: string; force: boolean; object: unknown }[];
  }[];
};
const results = JSON.parse(readFileSync(new URL('results.json', dir), 'utf8')) as Record<
  string,
  {
    object?: unknown;
    managers?: { manager: string; operation: string; fieldsV1: unknown }[];
    conflicts?: string[];
    error?: string;
  }[]
>;
const atom = atomOf(smdSchemaToStructural(input.schema, input.root));

function render(ms: ManagedSets) {
  return [...ms.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([manager, vs]) => ({
      manager,
      operation: vs.applied ? 'Apply' : 'Update',
      fieldsV1: encodeFieldsV1(vs.set),
    }));
}

describe('structured-merge-diff differential: multi-manager scenarios', () => {
  it.each(input.scenarios.map((s) => [s.name, s] as const))('%s', (_name, sc) => {
    let live: unknown = {};
    let managers: ManagedSets = new Map();
    const want = results[sc.name] ?? [];
    expect(want).toHaveLength(sc.steps.length);
    sc.steps.forEach((step, i) => {
      const w = want[i] as NonNullable<(typeof want)[number]>;
      const where = `step ${i + 1} (${step.op} by ${step.manager}${step.force ? ', force' : ''})`;
      try {
        const r =
          step.op === 'apply'
            ? applyFields(live, step.object, 'v1', managers, step.manager, step.force, { atom })
            : updateFields(live, step.object, 'v1', managers, step.manager, { atom });
        if (r.object !== undefined) live = r.object;
        managers = r.managers;
      } catch (e) {
        expect(isMergeConflicts(e), `${where}: ${(e as Error).message}`).toBe(true);
        expect({ where, error: (e as Error).message }).toEqual({ where, error: w.error });
        return;
      }
      expect({ where, error: undefined }).toEqual({ where, error: w.error });
      expect({ where, same: deepEqual(live, w.object) ? 'same' : JSON.stringify(live) }).toEqual({
        where,
        same: 'same',
      });
      expect({ where, managers: render(managers) }).toEqual({
        where,
        managers: (w.managers ?? []).map((e) => ({
          manager: e.manager,
          operation: e.operation,
          fieldsV1: JSON.stringify(e.fieldsV1),
        })),
      });
    });
  });
});
