import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '@orchard/authn';
import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { authorizationAttributes } from '../attributes.js';
import type { Authorizer } from '../authorizer.js';
import { createAuthorizationConfigController } from './authorization-config-controller.js';

const dir = mkdtempSync(join(tmpdir(), 'authz-reload-'));
const kubeconfig = join(dir, 'w.kubeconfig');
writeFileSync(
  kubeconfig,
  'clusters:\n- name: w\n  cluster:\n    server: https://127.0.0.1:1/authorize\nusers:\n- name: w\n  user:\n    token: t\n',
);
const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n';
const webhookEntry = (name: string, policy = 'NoOpinion') =>
  `- {type: Webhook, name: ${name}, webhook: {timeout: 2s, subjectAccessReviewVersion: v1, failurePolicy: ${policy}, connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${kubeconfig}}}}\n`;
const rbacEntry = '- {type: RBAC, name: rbac}\n';
const fixed = (decision: 'allow' | 'deny' | 'no-opinion', reason: string): Authorizer => ({
  authorize: () => ({ decision, reason }),
});
const attrs = authorizationAttributes({ user: { username: 'u', groups: [] }, verb: 'get', path: '/x' });

function setup(initial: string) {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, initial);
  const logs: string[] = [];
  let calls = 0;
  const fetch: FetchLike = async () => {
    calls++;
    return new Response(
      JSON.stringify({ kind: 'SubjectAccessReview', status: { allowed: true, reason: 'hook' } }),
    );
  };
  const write = (text: string) => writeFileSync(path, text);
  const c = createAuthorizationConfigController({
    path,
    flavor: kubernetesFlavor,
    builtins: { RBAC: fixed('no-opinion', 'rbac abstains') },
    log: (m) => logs.push(m),
    fetch,
  });
  return { c, logs, write, calls: () => calls };
}

describe('authorization config controller', () => {
  it('builds the chain in file order behind system:masters', async () => {
    const { c, calls } = setup(header + rbacEntry + webhookEntry('w'));
    expect(await c.authorizer.authorize(attrs)).toEqual({ decision: 'allow', reason: 'hook' });
    expect(calls()).toBe(1);
    expect(
      await c.authorizer.authorize({ ...attrs, user: { username: 'root', groups: ['system:masters'] } }),
    ).toMatchObject({
      decision: 'allow',
    });
    expect(calls()).toBe(1);
  });

  it('reloads a valid edit, keeps the last good chain on a bad one, and counts both', async () => {
    const { c, logs, write } = setup(header + rbacEntry + webhookEntry('w'));
    expect(c.check()).toBe('unchanged');
    write(`${header + rbacEntry}- {type: AlwaysDeny, name: alwaysdeny}\n`);
    expect(c.check()).toBe('reloaded');
    expect(await c.authorizer.authorize(attrs)).toEqual({
      decision: 'deny',
      reason: 'Everything is forbidden.',
    });
    expect(logs.at(-1)).toMatch(/authorization config: reloaded .* \(RBAC\/rbac, AlwaysDeny\/alwaysdeny\)/);
    write(`${header + rbacEntry}- {type: Webhook, name: w}\n`);
    expect(c.check()).toBe('failed');
    expect(logs.at(-1)).toMatch(
      /authorization config: keeping the last good configuration: .*authorizers\[1\]\.webhook: Required value/,
    );
    expect(await c.authorizer.authorize(attrs)).toMatchObject({ decision: 'deny' });
    expect(c.metrics.reloads.get({ status: 'success' })).toBe(1);
    expect(c.metrics.reloads.get({ status: 'failure' })).toBe(1);
    expect(c.metrics.lastReloadTimestamp.name).toBe(
      'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds',
    );
    // The same bad content is not re-parsed; a fix is taken.
    expect(c.check()).toBe('unchanged');
  });

  it('Node/RBAC may be reordered but neither added nor removed by a reload', () => {
    const { c, logs, write } = setup(header + rbacEntry + webhookEntry('w'));
    write(header + webhookEntry('w') + rbacEntry);
    expect(c.check()).toBe('reloaded');
    write(header + webhookEntry('w'));
    expect(c.check()).toBe('failed');
    expect(logs.at(-1)).toContain('missing required types: [RBAC]');
    write(header + rbacEntry + webhookEntry('w') + '- {type: Node, name: node}\n');
    expect(c.check()).toBe('failed');
    expect(logs.at(-1)).toContain(
      'authorizer type Node is not allowed if it was not enabled at initial server startup',
    );
    expect(c.configuration.authorizers.map((a) => a.type)).toEqual(['Webhook', 'RBAC']);
  });

  it('refuses at start a type the server does not build, and a bad file', () => {
    expect(() => setup(`${header}- {type: Node, name: node}\n`)).toThrow(
      /authorizers\[0\]: authorizer type Node is not available in this server/,
    );
    expect(() => setup(`${header}- {type: ABAC, name: abac}\n`)).toThrow(
      /type ABAC needs --authorization-policy-file/,
    );
    expect(() => setup(`${header}- {type: RBAC, name: x}\n`)).toThrow(
      /expected name rbac for authorizer RBAC instead of x/,
    );
  });

  it('a kubeconfig that cannot be read names the field', () => {
    writeFileSync(join(dir, 'bad.kubeconfig'), 'clusters: 3\n');
    expect(() => setup(header + webhookEntry('w').replace(kubeconfig, join(dir, 'bad.kubeconfig')))).toThrow(
      /authorizers\[0\]\.webhook\.connectionInfo\.kubeConfigFile: .*clusters: must be a list/,
    );
  });
});
