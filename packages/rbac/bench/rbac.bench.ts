/**
 * One RBAC decision with 1,000 roles and 10,000 bindings: the subject-indexed evaluator against a
 * naive scan of every binding (what upstream's RBAC authorizer does per request), in the same run.
 *
 *   pnpm bench rbac      (or: npx tsx packages/rbac/bench/rbac.bench.ts)
 */
import type { UserInfo } from '@orchard/meta';
import { bench, do_not_optimize, run, summary } from 'mitata';
import type { RbacAttributes } from '../src/index.js';
import { naive, queries, rbac } from './fixture.js';

let agree = 0;
for (const [u, a] of queries) if (rbac.authorize(u, a).allowed === naive(u, a)) agree++;
if (agree !== queries.length)
  throw new Error(`indexed and naive disagree on ${queries.length - agree} queries`);
const allowed = queries.filter(([u, a]) => naive(u, a)).length;
console.log(
  `1,000 roles, 10,000 bindings; ${queries.length} queries (${allowed} allowed), indexed = naive on all`,
);

let qi = 0;
summary(() => {
  bench('indexed evaluator: one decision', () => {
    const [u, a] = queries[qi++ & 255] as [UserInfo, RbacAttributes];
    do_not_optimize(rbac.authorize(u, a));
  });
  bench('baseline: naive scan of every binding: one decision', () => {
    const [u, a] = queries[qi++ & 255] as [UserInfo, RbacAttributes];
    do_not_optimize(naive(u, a));
  });
});
await run();
