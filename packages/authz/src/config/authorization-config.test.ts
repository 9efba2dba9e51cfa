import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor } from '@orchard/meta';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAuthorizationConfiguration } from './authorization-config.js';

const dir = mkdtempSync(join(tmpdir(), 'authz-config-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(
  kubeconfig,
  'apiVersion: v1\nkind: Config\nclusters:\n- name: w\n  cluster:\n    server: https://127.0.0.1:1/authorize\nusers:\n- name: w\n  user:\n    token: t\n',
);
mkdirSync(join(dir, 'adir'));
afterAll(() => undefined);

const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n';
/** A webhook entry with `over` replacing or (undefined) removing fields of a valid one. */
function webhook(over: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = {
    timeout: '3s',
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: 'v1',
    failurePolicy: 'Deny',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
    ...over,
  };
  for (const k of Object.keys(base)) if (base[k] === undefined) delete base[k];
  return `${header}authorizers:\n- type: Webhook\n  name: w\n  webhook: ${JSON.stringify(base)}\n`;
}
const parse = (text: string) =>
  parseAuthorizationConfiguration(text, { file: 'authz.yaml', flavor: kubernetesFlavor });

describe('AuthorizationConfiguration', () => {
  it('reads named ordered authorizers with webhook defaults', () => {
    const c = parse(
      `${header}authorizers:\n- type: Node\n  name: node\n- {type: Webhook, name: w, webhook: ${JSON.stringify(
        {
          timeout: '3s',
          subjectAccessReviewVersion: 'v1beta1',
          failurePolicy: 'NoOpinion',
          connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
        },
      )}}\n- type: RBAC\n  name: rbac\n`,
    );
    expect(c.authorizers.map((a) => `${a.type}/${a.name}`)).toEqual(['Node/node', 'Webhook/w', 'RBAC/rbac']);
    expect(c.authorizers[1]?.webhook).toMatchObject({
      authorizedTtlMs: 300_000,
      unauthorizedTtlMs: 30_000,
      timeoutMs: 3000,
      subjectAccessReviewVersion: 'v1beta1',
      failurePolicy: 'NoOpinion',
      kubeConfigFile: kubeconfig,
    });
  });

  it('accepts v1beta1 and v1alpha1, and cacheAuthorizedRequests: false turns that cache off', () => {
    for (const v of ['v1beta1', 'v1alpha1'])
      expect(parse(webhook().replace('/v1\n', `/${v}\n`)).apiVersion).toBe(`apiserver.config.k8s.io/${v}`);
    expect(parse(webhook({ cacheAuthorizedRequests: false })).authorizers[0]?.webhook?.authorizedTtlMs).toBe(
      0,
    );
  });

  const longName = 'a'.repeat(254);
  it.each([
    [
      'no authorizers',
      `${header}authorizers: []\n`,
      'authorizers: Required value: at least one authorization mode must be defined',
    ],
    [
      'wrong apiVersion',
      webhook().replace('config.k8s.io/v1', 'config.orch.io/v1'),
      'apiVersion: Unsupported value: "apiserver.config.orch.io/v1"',
    ],
    [
      'wrong kind',
      webhook().replace('kind: AuthorizationConfiguration', 'kind: Foo'),
      'kind: Unsupported value: "Foo": supported values: "AuthorizationConfiguration"',
    ],
    ['unknown field', webhook({ retries: 3 }), 'authorizers[0].webhook.retries: unknown field'],
    ['missing type', `${header}authorizers:\n- name: x\n`, 'authorizers[0].type: Required value'],
    [
      'unknown type',
      `${header}authorizers:\n- {type: Magic, name: magic}\n`,
      'authorizers[0].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
    ],
    [
      'repeated RBAC',
      `${header}authorizers:\n- {type: RBAC, name: rbac}\n- {type: RBAC, name: rbac2}\n`,
      'authorizers[1].type: Duplicate value: "RBAC"',
    ],
    ['missing name', `${header}authorizers:\n- {type: RBAC}\n`, 'authorizers[0].name: Required value'],
    [
      'repeated name',
      webhook().replace(/\n$/, `\n- {type: Webhook, name: w, webhook: {}}\n`),
      'authorizers[1].name: Duplicate value: "w"',
    ],
    [
      'bad name',
      webhook().replace('name: w', 'name: Bad_Name'),
      'authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid',
    ],
    [
      'too long name',
      webhook().replace('name: w', `name: ${longName}`),
      'authorizers[0].name: Invalid value',
    ],
    [
      'built-in with another name',
      `${header}authorizers:\n- {type: RBAC, name: roles}\n`,
      'expected name rbac for authorizer RBAC instead of roles',
    ],
    [
      'webhook without section',
      `${header}authorizers:\n- {type: Webhook, name: w}\n`,
      'authorizers[0].webhook: Required value: required when type=Webhook',
    ],
    [
      'section on RBAC',
      `${header}authorizers:\n- {type: RBAC, name: rbac, webhook: {}}\n`,
      'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook',
    ],
    ['missing timeout', webhook({ timeout: undefined }), 'authorizers[0].webhook.timeout: Required value'],
    ['zero timeout', webhook({ timeout: '0s' }), 'authorizers[0].webhook.timeout: Required value'],
    [
      'timeout over 30s',
      webhook({ timeout: '45s' }),
      'authorizers[0].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s',
    ],
    [
      'negative timeout',
      webhook({ timeout: '-1s' }),
      'authorizers[0].webhook.timeout: Invalid value: "-1s": must be > 0s and <= 30s',
    ],
    [
      'timeout not a duration',
      webhook({ timeout: 'soon' }),
      'authorizers[0].webhook.timeout: Invalid value: "soon": time: invalid duration "soon"',
    ],
    ['timeout a number', webhook({ timeout: 3 }), 'authorizers[0].webhook.timeout: Invalid value: 3'],
    [
      'negative authorizedTTL',
      webhook({ authorizedTTL: '-5m' }),
      'authorizers[0].webhook.authorizedTTL: Invalid value: "-5m0s": must be > 0s',
    ],
    [
      'negative unauthorizedTTL',
      webhook({ unauthorizedTTL: '-1s' }),
      'authorizers[0].webhook.unauthorizedTTL: Invalid value: "-1s": must be > 0s',
    ],
    [
      'missing review version',
      webhook({ subjectAccessReviewVersion: undefined }),
      'authorizers[0].webhook.subjectAccessReviewVersion: Required value',
    ],
    [
      'bad review version',
      webhook({ subjectAccessReviewVersion: 'v2' }),
      'authorizers[0].webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"',
    ],
    [
      'match version missing with conditions',
      webhook({
        matchConditionSubjectAccessReviewVersion: undefined,
        matchConditions: [{ expression: 'true' }],
      }),
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
    ],
    [
      'bad match version',
      webhook({ matchConditionSubjectAccessReviewVersion: 'v1beta1' }),
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
    ],
    [
      'missing failurePolicy',
      webhook({ failurePolicy: undefined }),
      'authorizers[0].webhook.failurePolicy: Required value',
    ],
    [
      'bad failurePolicy',
      webhook({ failurePolicy: 'Ignore' }),
      'authorizers[0].webhook.failurePolicy: Unsupported value: "Ignore": supported values: "NoOpinion", "Deny"',
    ],
    [
      'missing connection type',
      webhook({ connectionInfo: {} }),
      'authorizers[0].webhook.connectionInfo.type: Required value',
    ],
    [
      'bad connection type',
      webhook({ connectionInfo: { type: 'Magic' } }),
      'authorizers[0].webhook.connectionInfo.type: Unsupported value: "Magic"',
    ],
    [
      'InClusterConfig',
      webhook({ connectionInfo: { type: 'InClusterConfig' } }),
      'authorizers[0].webhook.connectionInfo.type: Invalid value: "InClusterConfig": InClusterConfig is not permitted',
    ],
    [
      'InClusterConfig with a file',
      webhook({ connectionInfo: { type: 'InClusterConfig', kubeConfigFile: kubeconfig } }),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value',
    ],
    [
      'missing kubeConfigFile',
      webhook({ connectionInfo: { type: 'KubeConfigFile' } }),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Required value',
    ],
    [
      'relative kubeConfigFile',
      webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'w.kubeconfig' } }),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "w.kubeconfig": must be an absolute path',
    ],
    [
      'absent kubeConfigFile',
      webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'nope') } }),
      'error loading file',
    ],
    [
      'directory kubeConfigFile',
      webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'adir') } }),
      'must be a regular file',
    ],
    [
      'empty condition',
      webhook({ matchConditions: [{ expression: ' ' }] }),
      'authorizers[0].webhook.matchConditions[0].expression: Required value',
    ],
    [
      'repeated condition',
      webhook({ matchConditions: [{ expression: 'true' }, { expression: 'true' }] }),
      'authorizers[0].webhook.matchConditions[1].expression: Duplicate value: "true"',
    ],
    [
      'condition not compiling',
      webhook({ matchConditions: [{ expression: 'request.user ==' }] }),
      'authorizers[0].webhook.matchConditions[0].expression: Invalid value: "request.user ==": compilation failed',
    ],
    [
      'condition not bool',
      webhook({ matchConditions: [{ expression: "'yes'" }] }),
      `authorizers[0].webhook.matchConditions[0].expression: Invalid value: "'yes'": compilation failed`,
    ],
    [
      'condition over an unknown variable',
      webhook({ matchConditions: [{ expression: "object.name == 'x'" }] }),
      'compilation failed',
    ],
    [
      '65 conditions',
      webhook({
        matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `request.user != 'u${i}'` })),
      }),
      'authorizers[0].webhook.matchConditions: Too many: 65: must have at most 64 items',
    ],
  ])('%s is refused naming the field', (_what, text, message) => {
    expect(() => parse(text)).toThrow(message);
    expect(() => parse(text)).toThrow(/^authz\.yaml: /);
  });

  it('reports every bad field at once', () => {
    expect(() => parse(webhook({ timeout: '1m', failurePolicy: 'x' }))).toThrow(
      /^authz\.yaml: \[authorizers\[0\]\.webhook\.timeout: .*, authorizers\[0\]\.webhook\.failurePolicy: /,
    );
  });

  it.each([
    ['not YAML', ': : :\n  - ['],
    ['a list', '- 1\n- 2\n'],
    ['a huge file', `${header}# ${'x'.repeat(1 << 20)}\n`],
    [
      'an alias bomb',
      `a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n`,
    ],
    ['deep nesting', `${header}authorizers: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
    ['__proto__ keys', `${header}__proto__: {polluted: true}\nauthorizers: [{type: RBAC, name: rbac}]\n`],
    [
      'constructor keys',
      `${header}authorizers: [{type: RBAC, name: rbac, constructor: {prototype: {x: 1}}}]\n`,
    ],
    ['repeated keys', `${header}kind: AuthorizationConfiguration\n`],
    ['wrong types', `${header}authorizers: {type: RBAC}\n`],
  ])('a hostile file (%s) is refused with a message naming the file', (_what, text) => {
    expect(() => parse(text)).toThrow(/^authz\.yaml/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
