import { compile, createAuthorizerValue, createEnv } from '@orchard/cel';
import { kubernetesFlavor } from '@orchard/meta';
import { createRbacEvaluator, defaultPolicy } from '@orchard/rbac';
import { describe, expect, it } from 'vitest';
import type { Authorizer } from './authorizer.js';
import { toCelAuthorizer } from './cel-authorizer.js';
import { createModeAuthorizer } from './modes.js';
import { createRbacAuthorizer } from './rbac-authorizer.js';

const evaluator = createRbacEvaluator();
const policy = defaultPolicy(kubernetesFlavor);
for (const r of policy.clusterRoles) evaluator.setClusterRole(r);
for (const b of policy.clusterRoleBindings) evaluator.setClusterRoleBinding(b);
evaluator.setClusterRole({
  metadata: { name: 'deployer' },
  rules: [
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] },
  ],
});
evaluator.setRoleBinding({
  metadata: { name: 'alice-deployer', namespace: 'dev' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'deployer' },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
});
const chain = createModeAuthorizer({ modes: ['RBAC'], rbac: createRbacAuthorizer(evaluator) });
const env = createEnv({ variables: { authorizer: 'Authorizer' } });
const run = (z: Authorizer, expr: string, username = 'alice') =>
  compile(expr, env).evaluate({
    authorizer: createAuthorizerValue(toCelAuthorizer(z), { username, groups: ['system:authenticated'] }),
  });

describe('the CEL authorizer library bound to the chain', () => {
  it.each([
    ["authorizer.group('apps').resource('deployments').namespace('dev').check('update').allowed()", true],
    ["authorizer.group('apps').resource('deployments').namespace('prod').check('update').allowed()", false],
    ["authorizer.group('').resource('pods').namespace('dev').name('p').check('delete').allowed()", true],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.path('/metrics').check('get').allowed()", false],
    [
      "authorizer.serviceAccount('dev', 'builder').group('apps').resource('deployments').namespace('dev').check('update').allowed()",
      false,
    ],
  ])('%s → %s', (expr, want) => {
    expect(run(chain, expr)).toBe(want);
  });

  it('the reason comes from RBAC', () => {
    expect(
      run(chain, "authorizer.group('').resource('pods').namespace('dev').check('list').reason()"),
    ).toMatch(/alice-deployer/);
  });

  it('a decision that needs a call is not allowed, with an error', () => {
    const remote: Authorizer = { authorize: async () => ({ decision: 'allow', reason: '' }) };
    expect(run(remote, "authorizer.path('/x').check('get').allowed()")).toBe(false);
    expect(run(remote, "authorizer.path('/x').check('get').errored()")).toBe(true);
  });
});
