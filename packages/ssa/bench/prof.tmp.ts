import { readFileSync } from 'node:fs';
import { applyFields, updateFields } from '../src/merge/updater.js';
import { smdSchemaToStructural } from '../src/testing/smd-schema.js';
import { atomOf } from '../src/typed/atom.js';
import { toFieldSet } from '../src/typed/to-field-set.js';

const dir = new URL('../testdata/smd-go/', import.meta.url);
const load = (n: string) => JSON.parse(readFileSync(new URL(n, dir), 'utf8'));
const inputs = load('inputs.json');
const atom = atomOf(smdSchemaToStructural(load('schema.json'), 'deployment'));
const opts = { atom };
const a = applyFields({}, inputs.a_A_apply, 'apps/v1', new Map(), 'A', false, opts);
const b = applyFields(a.object, inputs.b_A_apply, 'apps/v1', a.managers, 'A', false, opts);
const which = process.argv[2] ?? 'd';
const N = 30000;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  if (which === 'd') updateFields(b.object, inputs.d_C_update, 'apps/v1', new Map(b.managers), 'C', opts);
  else toFieldSet(inputs.a_A_apply, atom);
}
console.log(which, (((performance.now() - t0) / N) * 1000).toFixed(1), 'us');
