/**
 * @orchard/ssa against upstream structured-merge-diff (Go): the same Deployment-like object,
 * schema and operations as /work/shared/anchors/smd-go (scenarios a–e, FieldsV1 encode/decode),
 * read from testdata/smd-go/inputs.json. Prints our median ns/op and, when the anchor's
 * bench-raw.txt is present (run its ./run.sh first), the ratio to the Go figures.
 *
 *   pnpm --filter @orchard/ssa bench        (or: npx tsx packages/ssa/bench/ssa.bench.ts)
 */
import { existsSync, readFileSync } from 'node:fs';
import { bench, run, summary } from 'mitata';
import { decodeFieldsV1, encodeFieldsV1 } from '../src/fieldpath/fields-v1.js';
import { applyFields, type ManagedSets, updateFields } from '../src/merge/updater.js';
import { smdSchemaToStructural } from '../src/testing/smd-schema.js';
import { atomOf } from '../src/typed/atom.js';
import { toFieldSet } from '../src/typed/to-field-set.js';

const dir = new URL('../testdata/smd-go/', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const inputs = load('inputs.json');
const atom = atomOf(smdSchemaToStructural(load('schema.json'), 'deployment'));
const opts = { atom };
const V = 'apps/v1';

const a = applyFields({}, inputs.a_A_apply, V, new Map(), 'A', false, opts);
const b = applyFields(a.object, inputs.b_A_apply, V, a.managers, 'A', false, opts);
const copy = (m: ManagedSets): ManagedSets => new Map(m);
const setA = (a.managers.get('A') as { set: import('../src/fieldpath/field-set.js').FieldSet }).set;
const rawA = encodeFieldsV1(setA);

const go: Record<string, string> = {
  '(a) apply onto empty': 'BenchmarkA_ApplyOntoEmpty',
  '(b) re-apply, one change': 'BenchmarkB_ReapplyOneChange',
  '(c) apply conflict': 'BenchmarkC_ApplyConflict',
  "(c') apply force": 'BenchmarkC_ApplyForce',
  '(d) update, three fields': 'BenchmarkD_UpdateThreeFields',
  '(e) toFieldSet': 'BenchmarkE_ToFieldSet',
  'fieldsV1 encode': 'BenchmarkX_FieldsV1Encode',
  'fieldsV1 decode': 'BenchmarkX_FieldsV1Decode',
};

summary(() => {
  bench('(a) apply onto empty', () => applyFields({}, inputs.a_A_apply, V, new Map(), 'A', false, opts));
  bench('(b) re-apply, one change', () =>
    applyFields(a.object, inputs.b_A_apply, V, copy(a.managers), 'A', false, opts),
  );
  bench('(c) apply conflict', () => {
    try {
      applyFields(b.object, inputs.c_B_apply, V, copy(b.managers), 'B', false, opts);
    } catch {
      return;
    }
    throw new Error('expected a conflict');
  });
  bench("(c') apply force", () =>
    applyFields(b.object, inputs.c_B_apply, V, copy(b.managers), 'B', true, opts),
  );
  bench('(d) update, three fields', () =>
    updateFields(b.object, inputs.d_C_update, V, copy(b.managers), 'C', opts),
  );
  bench('(e) toFieldSet', () => toFieldSet(inputs.a_A_apply, atom));
  bench('fieldsV1 encode', () => encodeFieldsV1(setA));
  bench('fieldsV1 decode', () => decodeFieldsV1(rawA));
});

const res = await run({ format: process.env.BENCH_FORMAT === 'json' ? 'quiet' : 'mitata' });

/** Go median and min (ns/op) per benchmark from the anchor's last run on this machine. */
function goFigures(): Map<string, { median: number; min: number }> {
  const f = new URL('../../../../shared/anchors/smd-go/bench-raw.txt', import.meta.url);
  const out = new Map<string, number[]>();
  const path = process.env.SMD_BENCH_RAW ?? f.pathname;
  if (!existsSync(path)) return new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^(Benchmark\S+?)-\d+\s+\d+\s+([\d.]+) ns\/op/.exec(line);
    if (m) out.set(m[1] as string, [...(out.get(m[1] as string) ?? []), Number(m[2])]);
  }
  const figures = new Map<string, { median: number; min: number }>();
  for (const [k, v] of out) {
    const sorted = v.sort((x, y) => x - y);
    figures.set(k, { median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number });
  }
  return figures;
}

const goFig = goFigures();
const fmt = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)} µs` : `${x.toFixed(0)} ns`);
const rows: string[] = [
  '| operation | ours median | ours min | Go median | Go min | ours/Go (median) | ours/Go (min) |',
  '|---|---:|---:|---:|---:|---:|---:|',
];
for (const trial of res.benchmarks) {
  for (const r of trial.runs) {
    const st = r.stats;
    if (st === undefined) continue;
    const g = goFig.get(go[r.name] ?? '');
    rows.push(
      `| ${r.name} | ${fmt(st.p50)} | ${fmt(st.min)} | ${g ? fmt(g.median) : '–'} | ${g ? fmt(g.min) : '–'} | ${g ? (st.p50 / g.median).toFixed(2) : '–'} | ${g ? (st.min / g.min).toFixed(2) : '–'} |`,
    );
  }
}
console.log(`\n${rows.join('\n')}`);
