/**
 * Duplicate-field detection cost on a ~200-field Deployment body: plain `JSON.parse` (the
 * baseline: what decoding costs anyway), parse + the cheap check (the path every clean body
 * takes), and parse + the full scanner (the path a body with a duplicate takes).
 *
 *   npx tsx packages/schema/bench/duplicates.bench.ts
 */
import { bench, do_not_optimize, run, summary } from 'mitata';
import { deployment200 } from '../../patch/bench/fixture.js';
import { findDuplicateFieldsJson, scanJsonDuplicates } from '../src/duplicates.js';

const text = JSON.stringify(deployment200());
const dupText = text.replace('"replicas":3', '"replicas":3,"replicas":4');
if (findDuplicateFieldsJson(text, JSON.parse(text)).length !== 0) throw new Error('false positive');
if (findDuplicateFieldsJson(dupText, JSON.parse(dupText)).join() !== 'spec.replicas')
  throw new Error('missed duplicate');
console.log(`body: ${text.length} bytes`);

summary(() => {
  bench('baseline: JSON.parse', () => do_not_optimize(JSON.parse(text)));
  bench('JSON.parse + cheap check (clean body)', () => {
    const v = JSON.parse(text);
    return do_not_optimize(findDuplicateFieldsJson(text, v));
  });
  bench('JSON.parse + full scan (body with a duplicate)', () => {
    const v = JSON.parse(dupText);
    return do_not_optimize(findDuplicateFieldsJson(dupText, v));
  });
  bench('full scan alone', () => do_not_optimize(scanJsonDuplicates(text)));
});

await run();
