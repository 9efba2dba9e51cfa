import { describe, expect, it } from 'vitest';
import {
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  alwaysAllowAuthorizer,
  alwaysDenyAuthorizer,
  authorizationAttributes,
  createAuthorizerChain,
  createModeAuthorizer,
  createPrivilegedGroupsAuthorizer,
  parseAuthorizationModes,
} from './index.js';

const a: AuthorizationAttributes = authorizationAttributes({
  user: { username: 'u', groups: ['system:authenticated'] },
  verb: 'get',
  path: '/x',
});

function fixed(
  decision: AuthorizationResult['decision'],
  reason = '',
  calls: string[] = [],
  tag = '',
): Authorizer {
  return {
    authorize: () => {
      calls.push(tag);
      return { decision, reason };
    },
  };
}
function later(decision: AuthorizationResult['decision'], reason = ''): Authorizer {
  return { authorize: async () => ({ decision, reason }) };
}

describe('createAuthorizerChain', () => {
  it.each([
    [['allow', 'deny'], 'allow'],
    [['deny', 'allow'], 'deny'],
    [['no-opinion', 'allow'], 'allow'],
    [['no-opinion', 'deny'], 'deny'],
    [['no-opinion', 'no-opinion'], 'no-opinion'],
  ] as const)('%j → %s; later authorizers are not asked', async (decisions, want) => {
    const calls: string[] = [];
    const chain = createAuthorizerChain(decisions.map((d, i) => fixed(d, '', calls, String(i))));
    expect((await chain.authorize(a)).decision).toBe(want);
    const stop = decisions.findIndex((d) => d !== 'no-opinion');
    expect(calls.length).toBe(stop < 0 ? decisions.length : stop + 1);
  });

  it('stays synchronous when every authorizer is, and follows an async one', async () => {
    const sync = createAuthorizerChain([fixed('no-opinion'), fixed('allow')]);
    expect(sync.authorize(a)).not.toBeInstanceOf(Promise);
    const mixed = createAuthorizerChain([
      fixed('no-opinion', 'r1'),
      later('no-opinion', 'r2'),
      fixed('deny', 'no'),
    ]);
    const r = mixed.authorize(a);
    expect(r).toBeInstanceOf(Promise);
    expect(await r).toEqual({ decision: 'deny', reason: 'no' });
    const abstain = createAuthorizerChain([fixed('no-opinion', 'r1'), later('no-opinion', 'r2')]);
    expect(await abstain.authorize(a)).toEqual({ decision: 'no-opinion', reason: 'r1\nr2' });
  });

  it('rules reviews are incomplete when a member cannot list rules', () => {
    const chain = createAuthorizerChain([alwaysDenyAuthorizer, fixed('no-opinion')]);
    expect(chain.rulesFor?.(a.user, 'default').incomplete).toBe(true);
  });
});

describe('system:masters bypass and modes', () => {
  const masters = { ...a, user: { username: 'root', groups: ['system:masters', 'system:authenticated'] } };

  it('members of system:masters are allowed before any mode is asked, even AlwaysDeny', () => {
    const z = createModeAuthorizer({ modes: ['AlwaysDeny'] });
    expect(z.authorize(masters)).toEqual({ decision: 'allow', reason: '' });
    expect(z.authorize(a)).toEqual({ decision: 'deny', reason: 'Everything is forbidden.' });
    expect(createPrivilegedGroupsAuthorizer().authorize(a)).toEqual({ decision: 'no-opinion', reason: '' });
  });

  it('AlwaysAllow allows everyone; RBAC without an evaluator or ABAC without a file is a start-up error', () => {
    expect(createModeAuthorizer({ modes: ['AlwaysAllow'] }).authorize(a)).toEqual({
      decision: 'allow',
      reason: '',
    });
    expect(alwaysAllowAuthorizer.authorize(a)).toEqual({ decision: 'allow', reason: '' });
    expect(() => createModeAuthorizer({ modes: ['RBAC'] })).toThrow(/RBAC/);
    expect(() => createModeAuthorizer({ modes: ['ABAC'] })).toThrow(/--authorization-policy-file/);
    expect(() => createModeAuthorizer({ modes: ['Node'] })).toThrow(/Node needs a node authorizer/);
    expect(() =>
      createModeAuthorizer({ modes: ['RBAC'], rbac: alwaysAllowAuthorizer, abac: alwaysAllowAuthorizer }),
    ).toThrow(/without mode ABAC/);
  });

  it('parseAuthorizationModes keeps order and refuses unknown, repeated, empty and unbuilt modes', () => {
    expect(parseAuthorizationModes('RBAC,ABAC')).toEqual(['RBAC', 'ABAC']);
    expect(() => parseAuthorizationModes('RBAC,Foo')).toThrow(/unknown authorization mode "Foo"/);
    expect(() => parseAuthorizationModes('RBAC,RBAC')).toThrow(/more than once/);
    expect(() => parseAuthorizationModes('RBAC,')).toThrow(/empty mode/);
    expect(parseAuthorizationModes('Node,RBAC')).toEqual(['Node', 'RBAC']);
    expect(() => parseAuthorizationModes('__proto__')).toThrow(/unknown/);
  });
});
