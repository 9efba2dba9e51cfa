/**
 * One authorization decision as the server's filter asks it: request attributes → the chain
 * (`system:masters` bypass, then RBAC over the subject-indexed evaluator, via `toRbacAttributes`),
 * with 1,000 roles and 10,000 bindings (@orchard/rbac's bench data), against the naive scan of
 * every binding in the same run.
 *
 *   pnpm bench authz      (or: npx tsx packages/authz/bench/authz.bench.ts)
 */
import type { UserInfo } from '@orchard/meta';
import type { RbacAttributes } from '@orchard/rbac';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { naive, queries, rbac } from '../../rbac/bench/fixture.js';
import {
  type AuthorizationAttributes,
  authorizationAttributes,
  createModeAuthorizer,
  createRbacAuthorizer,
} from '../src/index.js';

const chain = createModeAuthorizer({ modes: ['RBAC'], rbac: createRbacAuthorizer(rbac) });

function toAttributes(user: UserInfo, a: RbacAttributes): AuthorizationAttributes {
  if (!a.resourceRequest) return authorizationAttributes({ user, verb: a.verb, path: a.path });
  return {
    user,
    verb: a.verb,
    isResourceRequest: true,
    path: '',
    apiGroup: a.apiGroup,
    apiVersion: 'v1',
    namespace: a.namespace ?? '',
    resource: a.resource,
    subresource: a.subresource ?? '',
    name: a.name ?? '',
  };
}

const asked = queries.map(([u, a]) => toAttributes(u, a));
let agree = 0;
for (let i = 0; i < queries.length; i++) {
  const [u, a] = queries[i] as [UserInfo, RbacAttributes];
  const r = chain.authorize(asked[i] as AuthorizationAttributes);
  if (r instanceof Promise) throw new Error('the RBAC chain must decide synchronously');
  if ((r.decision === 'allow') === naive(u, a)) agree++;
}
if (agree !== queries.length)
  throw new Error(`chain and naive disagree on ${queries.length - agree} queries`);
console.log(`1,000 roles, 10,000 bindings; ${queries.length} queries; chain = naive on all`);

let qi = 0;
summary(() => {
  bench('authorizer chain (masters bypass + RBAC): one decision', () => {
    do_not_optimize(chain.authorize(asked[qi++ & 255] as AuthorizationAttributes));
  });
  bench('baseline: naive scan of every binding: one decision', () => {
    const [u, a] = queries[qi++ & 255] as [UserInfo, RbacAttributes];
    do_not_optimize(naive(u, a));
  });
});
await run();
