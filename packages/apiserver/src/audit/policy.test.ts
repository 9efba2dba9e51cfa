import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { type AuditAttributes, evaluatePolicy, parseAuditPolicy } from './policy.js';

const policy = parseAuditPolicy(
  `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: RequestResponse
    resources: [{ group: "", resources: ["pods/log", "*/status"] }]
  - level: Request
    resources: [{ group: "apps", resources: ["deployments/*"] }]
  - level: Request
    resources: [{ group: "", resources: ["configmaps"], resourceNames: ["controller-leader"] }]
    omitStages: [ResponseStarted]
  - level: Metadata
    namespaces: ["kube-system"]
  - level: Request
    userGroups: ["system:serviceaccounts"]
  - level: Metadata
    omitManagedFields: true
`,
  'policy.yaml',
  kubernetesFlavor,
);

const res = (over: Partial<AuditAttributes>): AuditAttributes => ({
  user: { username: 'alice', groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p',
  apiGroup: '',
  namespace: 'default',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...over,
});
const nonRes = (path: string): AuditAttributes =>
  res({ isResourceRequest: false, path, verb: 'get', resource: '', namespace: '', name: '' });

/** Upstream's rule matching: first match wins; each selector narrows; wildcards as upstream. */
describe('audit policy rules', () => {
  it.each([
    [
      'a watch by the listed user',
      res({ user: { username: 'system:kube-proxy', groups: [] }, verb: 'watch' }),
      'None',
    ],
    ['the same user, another verb', res({ user: { username: 'system:kube-proxy', groups: [] } }), 'Metadata'],
    ['a non-resource URL with a trailing *', nonRes('/healthz/etcd'), 'None'],
    ['an exact non-resource URL', nonRes('/version'), 'None'],
    ['another non-resource URL', nonRes('/metrics'), 'Metadata'],
    ['resource/subresource', res({ subresource: 'log' }), 'RequestResponse'],
    ['*/subresource', res({ resource: 'services', subresource: 'status' }), 'RequestResponse'],
    ['the resource without the subresource', res({}), 'Metadata'],
    [
      'resource/* covers subresources',
      res({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }),
      'Request',
    ],
    [
      'resource/* covers the resource itself too, as upstream',
      res({ apiGroup: 'apps', resource: 'deployments' }),
      'Request',
    ],
    [
      'resource/* of another group',
      res({ apiGroup: 'batch', resource: 'deployments', subresource: 'scale' }),
      'Metadata',
    ],
    ['resourceNames match', res({ resource: 'configmaps', name: 'controller-leader' }), 'Request'],
    ['resourceNames do not match', res({ resource: 'configmaps', name: 'other' }), 'Metadata'],
    ['a namespace rule', res({ namespace: 'kube-system', resource: 'secrets' }), 'Metadata'],
    ['a group rule', res({ user: { username: 'sa', groups: ['system:serviceaccounts'] } }), 'Request'],
  ])('%s', (_name, attrs, level) => {
    expect(evaluatePolicy(policy, attrs).level).toBe(level);
  });

  it('joins policy and rule omitStages, and takes omitManagedFields from the rule', () => {
    const d = evaluatePolicy(policy, res({ resource: 'configmaps', name: 'controller-leader' }));
    expect([...d.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(evaluatePolicy(policy, res({})).omitManagedFields).toBe(true);
  });

  it('is None when no rule matches', () => {
    const p = parseAuditPolicy(
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n',
      'p',
      kubernetesFlavor,
    );
    expect(evaluatePolicy(p, res({})).level).toBe('None');
  });

  it.each([
    [
      'apiVersion: audit.k8s.io/v2\nkind: Policy\n',
      'p: apiVersion: Unsupported value: "audit.k8s.io/v2": supported values: "audit.k8s.io/v1"',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - users: [a]\n',
      'p: rules[0].level: Required value',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n    nonResourceURLs: ["/a*b"]\n',
      'p: rules[0].nonResourceURLs[0]: Invalid value: "/a*b": "*" is allowed only at the end',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n    namespaces: [a]\n    nonResourceURLs: ["/x"]\n',
      'rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n    resources: [{ group: "", resourceNames: [x] }]\n',
      'p: rules[0].resources[0].resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Sometimes]\n',
      'p: omitStages[0]: Unsupported value: "Sometimes"',
    ],
    [
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n    verbs: get\n',
      'p: rules[0].verbs: Invalid value',
    ],
    [
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","__proto__":{"rules":[]}}',
      'p: __proto__: unknown field',
    ],
    ['- a\n- b\n', 'p: not an Policy object'],
  ])('refuses %j', (text, message) => {
    expect(() => parseAuditPolicy(text, 'p', kubernetesFlavor)).toThrow(message);
  });
});
