/** Prints the per-section table and every failure: `npx tsx packages/cel/test/conformance/report.ts`. */
import { runConformance, summarize } from './runner.js';

const results = runConformance();
const rows = summarize(results);
let pass = 0;
let fail = 0;
let na = 0;
console.log('| section | pass | fail | n/a |\n|---|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.section} | ${r.pass} | ${r.fail} | ${r.notApplicable} |`);
  pass += r.pass;
  fail += r.fail;
  na += r.notApplicable;
}
console.log(`| **total** | **${pass}** | **${fail}** | ${na} |`);
console.log(
  `pass rate ${((100 * pass) / (pass + fail)).toFixed(1)}% of the ${pass + fail} core tests without protobuf messages; ` +
    `${((100 * pass) / (pass + fail + na)).toFixed(1)}% of all ${pass + fail + na} core tests`,
);
if (process.argv.includes('--failures'))
  for (const r of results) if (r.outcome === 'fail') console.log(`${r.id}\t${r.detail}`);
if (process.argv.includes('--na'))
  for (const r of results) if (r.outcome === 'n/a') console.log(`${r.id}\t${r.detail}`);
