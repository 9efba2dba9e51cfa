import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { isCelError } from '../errors.js';
import { thrownBy } from '../test-helpers.js';
import { type AuthorizationAttributes, type Authorizer, createAuthorizerValue } from './authorizer.js';

/** A fake authorizer: allows what the table says, records every question. */
function fakeAuthorizer(): Authorizer & { seen: AuthorizationAttributes[] } {
  const seen: AuthorizationAttributes[] = [];
  return {
    seen,
    authorize(a) {
      seen.push(a);
      if (a.resource === 'explode')
        return { decision: 'noOpinion', reason: '', error: 'webhook unreachable' };
      if (a.user.username === 'system:serviceaccount:default:builder' && a.resource === 'pods')
        return { decision: 'allow', reason: 'sa may' };
      if (a.user.username !== 'alice') return { decision: 'noOpinion', reason: 'unknown user' };
      if (!a.resourceRequest)
        return a.path === '/healthz'
          ? { decision: 'allow', reason: 'public' }
          : { decision: 'deny', reason: 'no path' };
      if (a.apiGroup === 'apps' && a.resource === 'deployments' && a.verb === 'update')
        return { decision: 'allow', reason: 'rbac: editor' };
      return { decision: 'deny', reason: `rbac: no ${a.verb}` };
    },
  };
}

const user = { username: 'alice', groups: ['devs'] };

describe('authorizer library', () => {
  const env = createEnv({ variables: { authorizer: 'Authorizer' } });

  it.each([
    [
      "authorizer.group('apps').resource('deployments').subresource('scale').namespace('default').name('web').check('update').allowed()",
      true,
    ],
    ["authorizer.group('apps').resource('deployments').check('update').reason()", 'rbac: editor'],
    ["authorizer.group('').resource('pods').namespace('default').check('delete').allowed()", false],
    ["authorizer.group('').resource('pods').check('delete').reason()", 'rbac: no delete'],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.path('/metrics').check('get').allowed()", false],
    [
      "authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('create').allowed()",
      true,
    ],
    ["authorizer.group('').resource('explode').check('get').errored()", true],
    ["authorizer.group('').resource('explode').check('get').error()", 'webhook unreachable'],
    ["authorizer.group('').resource('explode').check('get').allowed()", false],
    ["authorizer.group('apps').resource('deployments').check('update').errored()", false],
  ])('%s → %s', (expr, want) => {
    const authz = fakeAuthorizer();
    expect(compile(expr, env).evaluate({ authorizer: createAuthorizerValue(authz, user) })).toEqual(want);
  });

  it('passes the full attributes of a resource check', () => {
    const authz = fakeAuthorizer();
    compile(
      "authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('patch')",
      env,
    ).evaluate({
      authorizer: createAuthorizerValue(authz, user),
    });
    expect(authz.seen).toEqual([
      {
        user,
        verb: 'patch',
        resourceRequest: true,
        apiGroup: 'apps',
        apiVersion: '*',
        resource: 'deployments',
        subresource: 'scale',
        namespace: 'ns',
        name: 'web',
      },
    ]);
  });

  it('checks for a service account as that service account', () => {
    const authz = fakeAuthorizer();
    compile("authorizer.serviceAccount('kube', 'sa1').path('/x').check('get')", env).evaluate({
      authorizer: createAuthorizerValue(authz, user),
    });
    expect(authz.seen[0]?.user).toEqual({
      username: 'system:serviceaccount:kube:sa1',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube'],
    });
  });

  it('offers fieldSelector/labelSelector only with the AuthorizeWithSelectors gate', () => {
    const expr =
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('list').allowed()";
    const err = thrownBy(() => compile(expr, env));
    expect(isCelError(err) && err.code).toBe('type-check');

    const gated = createEnv({
      variables: { authorizer: 'Authorizer' },
      featureGates: { AuthorizeWithSelectors: true },
    });
    const authz = fakeAuthorizer();
    compile(expr, gated).evaluate({ authorizer: createAuthorizerValue(authz, user) });
    expect(authz.seen[0]?.fieldSelector?.rawSelector).toBe('spec.nodeName=n1');
    expect(authz.seen[0]?.labelSelector?.rawSelector).toBe('app=web');
  });

  it('reports an invalid selector as an errored decision without asking the authorizer', () => {
    const gated = createEnv({
      variables: { authorizer: 'Authorizer' },
      featureGates: { AuthorizeWithSelectors: true },
    });
    const authz = fakeAuthorizer();
    const v = compile(
      "authorizer.group('').resource('pods').labelSelector('a in (').check('list').errored()",
      gated,
    ).evaluate({
      authorizer: createAuthorizerValue(authz, user),
    });
    expect(v).toBe(true);
    expect(authz.seen).toEqual([]);
  });
});
