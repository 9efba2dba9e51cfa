import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import {
  type AuthorizationAttributes,
  abacApiVersionsFor,
  createAbacAuthorizer,
  isAbacPolicyError,
  parseAbacPolicies,
} from './index.js';

const policyFile = `
# comments and blank lines are skipped
{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","namespace":"*","resource":"*","apiGroup":"*"}}
{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"projectCaribou","resource":"pods","readonly":true}}
{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","readonly":true,"nonResourcePath":"/version*"}}
{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"*","namespace":"shared","resource":"configmaps","apiGroup":""}}
{"user":"legacy"}
`;

function req(user: string, verb: string, ns: string, resource: string, group = ''): AuthorizationAttributes {
  return {
    user: { username: user, groups: ['system:authenticated'] },
    verb,
    isResourceRequest: resource !== '',
    path: resource === '' ? ns : `/api/v1/namespaces/${ns}/${resource}`,
    apiGroup: group,
    apiVersion: 'v1',
    namespace: resource === '' ? '' : ns,
    resource,
    subresource: '',
    name: '',
  };
}

describe('ABAC policy file', () => {
  const z = createAbacAuthorizer(parseAbacPolicies(policyFile, 'p.jsonl'));
  it.each([
    ['alice', 'delete', 'any', 'secrets', 'apps', true],
    ['bob', 'list', 'projectCaribou', 'pods', '', true],
    ['bob', 'create', 'projectCaribou', 'pods', '', false],
    ['bob', 'get', 'other', 'pods', '', false],
    ['bob', 'get', 'projectCaribou', 'secrets', '', false],
    ['bob', 'get', 'projectCaribou', 'pods', 'apps', false],
    ['carol', 'get', '/version', '', '', true],
    ['carol', 'get', '/version/x', '', '', true],
    ['carol', 'post', '/version', '', '', false],
    ['carol', 'get', '/healthz', '', '', false],
    ['carol', 'update', 'shared', 'configmaps', '', true],
    ['legacy', 'delete', 'x', 'pods', 'apps', true],
    ['legacy', 'get', '/metrics', '', '', true],
  ])('%s %s %s %s (group %j) → %s', (user, verb, ns, res, group, allowed) => {
    expect(z.authorize(req(user, verb, ns, res, group))).toEqual({
      decision: allowed ? 'allow' : 'no-opinion',
      reason: '',
    });
  });

  it('lists the rules a user holds in a namespace', () => {
    const r = z.rulesFor?.({ username: 'bob', groups: ['system:authenticated'] }, 'projectCaribou');
    expect(r?.resourceRules).toContainEqual({
      verbs: ['get', 'list', 'watch'],
      apiGroups: [''],
      resources: ['pods'],
    });
    expect(r?.nonResourceRules).toContainEqual({
      verbs: ['get', 'list', 'watch'],
      nonResourceURLs: ['/version*'],
    });
  });

  it.each([
    [
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":1}}',
      /p\.jsonl:2: spec\.user/,
    ],
    [
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"usr":"a"}}',
      /p\.jsonl:2: spec: .*usr/,
    ],
    [
      '{"apiVersion":"abac.authorization.kubernetes.io/v9","kind":"Policy","spec":{"user":"a"}}',
      /p\.jsonl:2: apiVersion: unsupported/,
    ],
    [
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{}}',
      /p\.jsonl:2: spec: one of user or group/,
    ],
    ['{"user":"a",', /p\.jsonl:2: not a JSON object/],
    ['[1,2]', /p\.jsonl:2: not a JSON object/],
    ['{"__proto__":{"user":"x"}}', /p\.jsonl:2: /],
    ['{"constructor":"x"}', /p\.jsonl:2: /],
    [`{"user":"${'a'.repeat(70_000)}"}`, /p\.jsonl:2: line longer/],
  ])('a bad line is refused naming file, line and field: %s', (line, message) => {
    let err: unknown;
    try {
      parseAbacPolicies(`# ok\n${line}\n`, 'p.jsonl');
    } catch (e) {
      err = e;
    }
    expect(isAbacPolicyError(err)).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect(({} as Record<string, unknown>).user).toBeUndefined();
  });

  it('deeply nested JSON on a line is an error, not a crash', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseAbacPolicies(deep, 'p')).toThrow(/p:1:/);
  });
});

describe('ABAC apiVersion per flavor', () => {
  const line = (group: string) =>
    `{"apiVersion":"abac.authorization.${group}/v1beta1","kind":"Policy","spec":{"user":"alice","readonly":true,"nonResourcePath":"*"}}`;
  it("accepts upstream's group under every flavor and the flavor's own under orch", () => {
    for (const f of [orchFlavor, kubernetesFlavor, undefined])
      expect(parseAbacPolicies(line('kubernetes.io'), 'p', f)).toHaveLength(1);
    expect(parseAbacPolicies(line('orch.io'), 'p', orchFlavor)).toHaveLength(1);
    expect(abacApiVersionsFor(orchFlavor)).toEqual([
      'abac.authorization.kubernetes.io/v1beta1',
      'abac.authorization.orch.io/v1beta1',
    ]);
  });
  it('refuses the orch group under the kubernetes flavor, naming the line and the field', () => {
    expect(() => parseAbacPolicies(`\n${line('orch.io')}`, 'p', kubernetesFlavor)).toThrow(
      'p:2: apiVersion: unsupported "abac.authorization.orch.io/v1beta1" (want abac.authorization.kubernetes.io/v1beta1)',
    );
  });
});
