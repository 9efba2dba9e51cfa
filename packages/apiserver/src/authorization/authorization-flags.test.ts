import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { readAuthorizationFlags } from './authorization-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'authz-flags-'));
const config = join(dir, 'authz.yaml');
writeFileSync(
  config,
  'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- {type: RBAC, name: rbac}\n',
);
const read = (values: Record<string, string>) => readAuthorizationFlags(values, kubernetesFlavor);

describe('authorization flags', () => {
  it('defaults to RBAC and reads the webhook flags', () => {
    expect(read({})).toEqual({ authorizationModes: ['Node', 'RBAC'] });
    expect(
      read({
        'authorization-mode': 'Webhook,RBAC',
        'authorization-webhook-config-file': '/w.kubeconfig',
        'authorization-webhook-version': 'v1',
        'authorization-webhook-cache-authorized-ttl': '1m',
        'authorization-webhook-cache-unauthorized-ttl': '0s',
      }),
    ).toEqual({
      authorizationModes: ['Webhook', 'RBAC'],
      authorizationWebhook: {
        configFile: '/w.kubeconfig',
        version: 'v1',
        authorizedTtlMs: 60_000,
        unauthorizedTtlMs: 0,
      },
    });
    expect(read({ 'authorization-config': config })).toEqual({
      authorizationModes: [],
      authorizationConfigFile: config,
    });
  });

  it.each([
    [
      { 'authorization-config': config, 'authorization-mode': 'RBAC' },
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ],
    [
      { 'authorization-config': config, 'authorization-webhook-cache-authorized-ttl': '1m' },
      '--authorization-config can not be specified',
    ],
    [
      { 'authorization-config': join(dir, 'nope.yaml') },
      `--authorization-config: cannot read ${join(dir, 'nope.yaml')}`,
    ],
    [
      { 'authorization-mode': 'Webhook' },
      "--authorization-mode: authorization-mode Webhook's authorization config file not passed",
    ],
    [
      { 'authorization-webhook-config-file': '/x' },
      '--authorization-webhook-config-file: cannot be specified without mode Webhook',
    ],
    [
      {
        'authorization-mode': 'Webhook',
        'authorization-webhook-config-file': '/x',
        'authorization-webhook-version': 'v2',
      },
      '--authorization-webhook-version: unsupported version "v2"',
    ],
    [
      {
        'authorization-mode': 'Webhook',
        'authorization-webhook-config-file': '/x',
        'authorization-webhook-cache-authorized-ttl': 'soon',
      },
      'invalid argument "soon" for "--authorization-webhook-cache-authorized-ttl" flag',
    ],
    [
      {
        'authorization-mode': 'Webhook',
        'authorization-webhook-config-file': '/x',
        'authorization-webhook-cache-unauthorized-ttl': '-1s',
      },
      '--authorization-webhook-cache-unauthorized-ttl" flag: must not be negative',
    ],
    [{ 'authorization-policy-file': '/p' }, '--authorization-policy-file: given without mode ABAC'],
    [
      { 'authorization-mode': 'ABAC', 'authorization-policy-file': '/nonexistent/abac.jsonl' },
      '--authorization-policy-file: cannot read /nonexistent/abac.jsonl',
    ],
  ])('%j is refused naming the flag', (values, message) => {
    expect(() => read(values)).toThrow(message);
  });
});
