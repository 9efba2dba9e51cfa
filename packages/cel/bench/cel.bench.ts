/**
 * Compile and evaluate six typical CRD validation rules with @orchard/cel, against the raw
 * @marcbachmann/cel-js (same engine, no wrapper: no cost tracking, no RE2, no list semantics) as
 * the baseline measured in the same run.
 *
 *   pnpm bench cel    (or: npx tsx packages/cel/bench/cel.bench.ts)
 */
import { Environment } from '@marcbachmann/cel-js';
import type { StructuralSchema } from '@orchard/schema';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { compile, compileValidationRules, createEnv, toCelValue, validateWithRules } from '../src/index.js';
import { registerSchemaTypes } from '../src/types.js';

const rules = [
  'self.minReplicas <= self.maxReplicas',
  "self.image.matches('^[a-z0-9./-]+:[a-zA-Z0-9._-]+$')",
  'self.ports.all(p, p.port > 0 && p.port < 65536)',
  "!has(self.tier) || self.tier in ['gold', 'silver', 'bronze']",
  'self.minReplicas == oldSelf.minReplicas || self.minReplicas > oldSelf.minReplicas',
  "self.containers.exists_one(c, c.name == 'main')",
];

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    minReplicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    image: { type: 'string', maxLength: 256 },
    tier: { type: 'string', maxLength: 16 },
    ports: {
      type: 'array',
      maxItems: 32,
      listType: 'map',
      listMapKeys: ['name'],
      items: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 15 }, port: { type: 'integer' } },
      },
    },
    containers: {
      type: 'array',
      maxItems: 16,
      items: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 63 }, image: { type: 'string', maxLength: 256 } },
      },
    },
  },
};

const spec = {
  minReplicas: 2,
  maxReplicas: 5,
  image: 'registry.example.com/team/app:1.2.3',
  tier: 'gold',
  ports: Array.from({ length: 8 }, (_, i) => ({ name: `p${i}`, port: 8000 + i })),
  containers: [
    { name: 'main', image: 'app:1' },
    { name: 'sidecar', image: 'proxy:2' },
  ],
};
const self = toCelValue(spec, schema);
const oldSelf = toCelValue({ ...spec, minReplicas: 1 }, schema);

const rawEnv = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false })
  .registerVariable('self', 'map<string, dyn>')
  .registerVariable('oldSelf', 'map<string, dyn>');
const ourEnv = createEnv({ variables: { self: { schema }, oldSelf: { schema } } });

// The like-for-like baseline: the raw engine with the declarations our compile checks against
// (schema objects as message types, so field types are checked), same options.
const rawTypedEnv = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
let typeCount = 0;
const selfType = registerSchemaTypes(rawTypedEnv, schema, () => `bench.Object${++typeCount}`);
rawTypedEnv.registerVariable('self', selfType).registerVariable('oldSelf', selfType);

const rawCompile = (r: string) => {
  const p = rawEnv.parse(r);
  const c = p.check();
  if (!c.valid) throw c.error;
  return p;
};
const rawTypedCompile = (r: string) => {
  const p = rawTypedEnv.parse(r);
  const c = p.check();
  if (!c.valid) throw c.error;
  return p;
};
const rawPrograms = rules.map(rawCompile);
const ourPrograms = rules.map((r) => compile(r, ourEnv));

// Both give the same answers (checked once, so the figures compare like with like).
for (let i = 0; i < rules.length; i++) {
  const a = rawPrograms[i]?.({ self, oldSelf });
  const b = ourPrograms[i]?.evaluate({ self, oldSelf });
  if (a !== true || b !== true) throw new Error(`rule ${rules[i]}: raw ${a}, ours ${b}`);
}

const crdSchema: StructuralSchema = {
  type: 'object',
  properties: { spec: { ...schema, validations: rules.map((rule) => ({ rule })) } },
};
const compiled = compileValidationRules(crdSchema);
if (compiled.errors.length > 0) throw new Error(JSON.stringify(compiled.errors));
const obj = { spec };
const oldObj = { spec: { ...spec, minReplicas: 1 } };

const rawCompileAll = () => {
  for (const r of rules) do_not_optimize(rawCompile(r));
};
const ourCompileAll = () => {
  for (const r of rules) do_not_optimize(compile(r, ourEnv));
};
const rawTypedCompileAll = () => {
  for (const r of rules) do_not_optimize(rawTypedCompile(r));
};
// compile and one evaluation: ours builds the evaluation AST of a rule over schema variables on its
// first evaluation, so this is the figure that shows what moved out of compile
const rawCompileEvaluateAll = () => {
  for (const r of rules) do_not_optimize(rawCompile(r)({ self, oldSelf }));
};
const ourCompileEvaluateAll = () => {
  for (const r of rules) do_not_optimize(compile(r, ourEnv).evaluate({ self, oldSelf }));
};
const rawEvaluateAll = () => {
  for (const p of rawPrograms) do_not_optimize(p({ self, oldSelf }));
};
const ourEvaluateAll = () => {
  for (const p of ourPrograms) do_not_optimize(p.evaluate({ self, oldSelf }));
};

summary(() => {
  bench('baseline: raw cel-js parse + check, 6 rules', rawCompileAll);
  bench('baseline: raw cel-js parse + check, typed declarations, 6 rules', rawTypedCompileAll);
  bench('@orchard/cel compile (parse, typed check, estimate), 6 rules', ourCompileAll);
});

summary(() => {
  bench('baseline: raw cel-js evaluate, 6 rules', rawEvaluateAll);
  bench('@orchard/cel evaluate with cost tracking, 6 rules', ourEvaluateAll);
  bench('@orchard/cel validateWithRules (convert + 6 rules + causes)', () => {
    do_not_optimize(validateWithRules(obj, oldObj, compiled));
  });
});

/**
 * Interleaved same-run ratio: rounds of one batch of the raw engine then one batch of ours, so load
 * drift on a shared machine hits both alike (mitata measures one benchmark after the other). Reports
 * the ratio of the fastest batches and the median of the per-round ratios.
 */
function interleaved(raw: () => void, ours: () => void, batch: number, rounds = 300): string {
  const time = (fn: () => void) => {
    const t = performance.now();
    for (let i = 0; i < batch; i++) fn();
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) {
    time(raw); // warm-up
    time(ours);
  }
  let rawMin = Number.POSITIVE_INFINITY;
  let ourMin = Number.POSITIVE_INFINITY;
  const perRound: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const r = time(raw);
    const o = time(ours);
    rawMin = Math.min(rawMin, r);
    ourMin = Math.min(ourMin, o);
    perRound.push(o / r);
  }
  perRound.sort((a, b) => a - b);
  const median = perRound[Math.floor(rounds / 2)] as number;
  const us = (ms: number) => `${((ms * 1000) / batch).toFixed(2)} µs`;
  return `${(ourMin / rawMin).toFixed(2)}× by min (${us(ourMin)} vs ${us(rawMin)}), ${median.toFixed(2)}× median of paired rounds`;
}

const { benchmarks } = await run();
// Same-run ratios of the wrapper over the raw engine, by the minimum and the median (p50) per iteration.
const stat = (prefix: string) => benchmarks.find((b) => b.alias.startsWith(prefix))?.runs[0]?.stats;
const ratio = (ours: string, raw: string) => {
  const [o, r] = [stat(ours), stat(raw)];
  return o && r ? `${(o.min / r.min).toFixed(2)}× by min, ${(o.p50 / r.p50).toFixed(2)}× by median` : 'n/a';
};
console.log(`compile ratio: ${ratio('@orchard/cel compile', 'baseline: raw cel-js parse + check, 6')}`);
console.log(
  `compile ratio, typed baseline: ${ratio('@orchard/cel compile', 'baseline: raw cel-js parse + check, typed')}`,
);
console.log(`evaluate ratio: ${ratio('@orchard/cel evaluate', 'baseline: raw cel-js evaluate')}`);
console.log(`interleaved compile ratio: ${interleaved(rawCompileAll, ourCompileAll, 10)}`);
console.log(
  `interleaved compile ratio, typed baseline: ${interleaved(rawTypedCompileAll, ourCompileAll, 10)}`,
);
console.log(
  `interleaved compile + first evaluate ratio: ${interleaved(rawCompileEvaluateAll, ourCompileEvaluateAll, 10)}`,
);
console.log(`interleaved evaluate ratio: ${interleaved(rawEvaluateAll, ourEvaluateAll, 200)}`);
