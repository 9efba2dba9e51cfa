import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flavorByName } from '@orchard/meta';
import { afterAll, describe, expect, it } from 'vitest';
import { startCliServer } from './helpers/cli-server.js';

/**
 * The reference server's default authorization (issue 14 item 8), as users start it: with no
 * authorization flag `orchard-apiserver` runs `--authorization-mode=Node,RBAC`, its admin kubeconfig
 * is in `system:masters`, and any other user meets RBAC and the Node authorizer at once. Other
 * users are reached through impersonation by the admin. Under both flavors.
 */
type Obj = Record<string, any>;
const dir = mkdtempSync(join(tmpdir(), 'orchard-authz-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['orch', 'kubernetes'] as const)(
  'orchard-apiserver default authorization (%s flavor)',
  (name) => {
    const flavor = flavorByName(name);
    it('Node,RBAC by default: the admin may do anything, a new user only what the default roles open', async () => {
      const api = await startCliServer(
        ['--flavor', name, '--storage', 'memory', '--data-dir', join(dir, name)],
        join(dir, `${name}.kubeconfig`),
      );
      try {
        const admin = await api.request('GET', '/api/v1/namespaces');
        expect(admin.status, admin.text).toBe(200);
        const who = await api.request(
          'POST',
          `/apis/${flavor.group('authentication')}/v1/selfsubjectreviews`,
          { apiVersion: `${flavor.group('authentication')}/v1`, kind: 'SelfSubjectReview' },
        );
        expect((who.json as Obj).status.userInfo.groups).toContain('system:masters');
        const jane = { 'impersonate-user': 'jane', 'impersonate-group': 'system:authenticated' };
        const denied = await api.request('GET', '/api/v1/namespaces', undefined, jane);
        expect(denied.status).toBe(403);
        expect((denied.json as Obj).message).toBe(
          'namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope',
        );
        expect((await api.request('GET', '/version', undefined, jane)).status).toBe(200);
        expect((await api.request('GET', '/apis', undefined, jane)).status).toBe(200);
        // The Node authorizer is in the chain: a node is refused a secret no pod of it uses.
        const node = { 'impersonate-user': 'system:node:n1', 'impersonate-group': 'system:nodes' };
        const secret = await api.request('GET', '/api/v1/namespaces/default/secrets/x', undefined, node);
        expect(secret.status).toBe(403);
        expect((secret.json as Obj).message).toContain(
          "no relationship found between node 'n1' and this object",
        );
        expect(
          (await api.request('GET', '/api/v1/namespaces/default/services', undefined, node)).status,
        ).toBe(200);
        // The default policy is the flavor's.
        const crs = await api.request('GET', `/apis/${flavor.group('rbac.authorization')}/v1/clusterroles`);
        const names = ((crs.json as Obj).items as Obj[]).map((r) => r.metadata.name);
        expect(names).toContain(`system:${name === 'orch' ? 'orch' : 'kube'}-scheduler`);
      } finally {
        await api.stop();
      }
    }, 90_000);
  },
);
