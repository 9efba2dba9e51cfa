/**
 * The three patch types on a ~200-field Deployment, against fast-json-patch's own `applyPatch`
 * (non-mutating, validating) on the same input as the baseline.
 *
 *   npx tsx packages/patch/bench/patch.bench.ts
 */
import { kubernetesFlavor } from '@orchard/meta';
import { builtinSchema } from '@orchard/schema';
import fjp from 'fast-json-patch';
import { bench, do_not_optimize, run, summary } from 'mitata';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  createThreeWayMergePatch,
} from '../src/index.js';
import { deployment200, jsonPatch, leaves, mergePatchFor, strategicPatch } from './fixture.js';

const doc = deployment200();
const schema = builtinSchema(kubernetesFlavor, 'apps', 'v1', 'Deployment')!;
const merge = mergePatchFor(doc);
const ops = jsonPatch as unknown as fjp.Operation[];
console.log(`Deployment fixture: ${leaves(doc)} leaf fields`);

// All four produce the same object (checked once, so the figures compare like with like).
const a = JSON.stringify(applyJsonPatch(doc, ops));
const b = JSON.stringify(fjp.applyPatch(doc, ops, true, false).newDocument);
const c = JSON.stringify(applyStrategicMergePatch(doc, strategicPatch, schema));
const d = JSON.stringify(applyMergePatch(doc, merge));
const norm = (s: string) => JSON.stringify(JSON.parse(s), Object.keys(JSON.parse(s)).sort());
if (
  a !== b ||
  norm(a) !== norm(d) ||
  JSON.parse(a).spec.template.spec.containers[3].image !==
    JSON.parse(c).spec.template.spec.containers[3].image
) {
  throw new Error('patch results differ');
}

summary(() => {
  bench('baseline: fast-json-patch applyPatch (clone + validate)', () =>
    do_not_optimize(fjp.applyPatch(doc, ops, true, false)),
  );
  bench('json-patch: applyJsonPatch', () => do_not_optimize(applyJsonPatch(doc, ops)));
  bench('merge-patch: applyMergePatch', () => do_not_optimize(applyMergePatch(doc, merge)));
  bench('strategic: applyStrategicMergePatch', () =>
    do_not_optimize(applyStrategicMergePatch(doc, strategicPatch, schema)),
  );
});

const modified = JSON.parse(c);
summary(() => {
  bench('three-way: createThreeWayMergePatch (client-side apply)', () =>
    do_not_optimize(createThreeWayMergePatch(doc, modified, doc, schema)),
  );
});

await run();
