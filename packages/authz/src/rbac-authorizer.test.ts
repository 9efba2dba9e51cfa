import { kubernetesFlavor } from '@orchard/meta';
import { createRbacEvaluator, defaultPolicy } from '@orchard/rbac';
import { describe, expect, it } from 'vitest';
import { type AuthorizationAttributes, createModeAuthorizer, createRbacAuthorizer } from './index.js';

const G = 'rbac.authorization.k8s.io';
const evaluator = createRbacEvaluator();
const policy = defaultPolicy(kubernetesFlavor);
for (const r of policy.clusterRoles) evaluator.setClusterRole(r);
for (const b of policy.clusterRoleBindings) evaluator.setClusterRoleBinding(b);
evaluator.setRole({
  metadata: { name: 'cm-reader', namespace: 'team' },
  rules: [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['one'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
  ],
});
evaluator.setRoleBinding({
  metadata: { name: 'dev-reads', namespace: 'team' },
  subjects: [{ kind: 'User', name: 'dev', apiGroup: G }],
  roleRef: { kind: 'Role', name: 'cm-reader', apiGroup: G },
});
const z = createModeAuthorizer({ modes: ['RBAC'], rbac: createRbacAuthorizer(evaluator) });

function res(
  user: string,
  verb: string,
  ns: string,
  resource: string,
  extra: Partial<AuthorizationAttributes> = {},
) {
  return {
    user: {
      username: user,
      groups: user === 'system:anonymous' ? ['system:unauthenticated'] : ['system:authenticated'],
    },
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: ns,
    resource,
    subresource: '',
    name: '',
    ...extra,
  };
}
function path(user: string, p: string, verb = 'get') {
  return { ...res(user, verb, '', ''), isResourceRequest: false, path: p };
}

describe('RBAC mode over the default policy', () => {
  it.each([
    [res('dev', 'get', 'team', 'configmaps', { name: 'one' }), 'allow'],
    [res('dev', 'get', 'team', 'configmaps', { name: 'two' }), 'no-opinion'],
    [res('dev', 'list', 'team', 'configmaps'), 'no-opinion'],
    [res('dev', 'list', 'team', 'configmaps', { fieldSelector: 'metadata.name=one' }), 'allow'],
    [res('dev', 'watch', 'team', 'configmaps', { fieldSelector: 'metadata.name=one' }), 'allow'],
    [res('dev', 'get', 'other', 'configmaps', { name: 'one' }), 'no-opinion'],
    [res('dev', 'get', 'team', 'pods', { name: 'p', subresource: 'log' }), 'allow'],
    [res('dev', 'get', 'team', 'pods', { name: 'p' }), 'no-opinion'],
    [res('dev', 'create', 'team', 'configmaps'), 'no-opinion'],
    [path('dev', '/version'), 'allow'],
    [path('dev', '/healthz'), 'allow'],
    [path('dev', '/apis'), 'allow'],
    [path('dev', '/metrics'), 'no-opinion'],
    [path('system:anonymous', '/version'), 'allow'],
    [path('system:anonymous', '/apis'), 'no-opinion'],
    [res('dev', 'create', '', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io' }), 'allow'],
    [
      res('system:anonymous', 'create', '', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io' }),
      'no-opinion',
    ],
  ])('%# %o → %s', (attrs, want) => {
    expect((z.authorize(attrs) as { decision: string }).decision).toBe(want);
  });

  it('names the binding that allowed', () => {
    expect(z.authorize(res('dev', 'get', 'team', 'configmaps', { name: 'one' }))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "dev-reads/team" of Role "cm-reader" to User "dev"',
    });
  });

  it('lists rules for a rules review', () => {
    const r = z.rulesFor?.({ username: 'dev', groups: ['system:authenticated'] }, 'team');
    expect(r?.incomplete).toBe(false);
    expect(r?.resourceRules).toContainEqual({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] });
    expect(r?.nonResourceRules.some((n) => n.nonResourceURLs?.includes('/version'))).toBe(true);
  });
});
