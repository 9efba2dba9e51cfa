import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flavorByName } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { createAndAuthorize, startTestServer } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server.js';
import { runCli } from './helpers/cli-server.js';
import { bob, carol, rbacFixtures } from './helpers/rbac-fixtures.js';

/**
 * The authorization modes other than Node,RBAC (AlwaysAllow, AlwaysDeny, ABAC from
 * `--authorization-policy-file`, its start-up errors) and the unsafe-delete permission of the
 * Lifecycle issue enforced through RBAC (issue 14 items 1 and 7), under both flavors. Each test
 * starts its own server.
 */
type Obj = Record<string, any>;

describe.each(['orch', 'kubernetes'] as const)('authorization modes (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const { G, RBAC, role, binding } = rbacFixtures(flavor);
  describe('modes', () => {
    it('AlwaysAllow lets every user through; AlwaysDeny refuses all but system:masters', async () => {
      const open = await startTestServer({ flavor: flavorName, authorization: 'AlwaysAllow' });
      const closed = await startTestServer({ flavor: flavorName, authorization: 'AlwaysDeny' });
      try {
        expect((await open.request('GET', '/api/v1/namespaces', { as: bob })).status).toBe(200);
        const denied = await closed.request('GET', '/api/v1/namespaces', { as: bob });
        expect(denied.status).toBe(403);
        expect((denied.json as Obj).message).toBe(
          'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.',
        );
        expect((await closed.request('GET', '/api/v1/namespaces')).status).toBe(200);
      } finally {
        await open.stop();
        await closed.stop();
      }
    });

    it('ABAC from a policy file; a bad file stops the start naming the line and field', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'abac-'));
      try {
        const good = join(dir, 'good.jsonl');
        await writeFile(
          good,
          [
            '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"*","resource":"namespaces","readonly":true}}',
            // The second line names the ABAC group in the flavor's domain (orch.io under orch).
            `{"apiVersion":"abac.authorization.${flavorName === 'orch' ? 'orch.io' : 'kubernetes.io'}/v1beta1","kind":"Policy","spec":{"group":"team-a","namespace":"*","apiGroup":"${G}","resource":"roles","readonly":true}}`,
            '',
          ].join('\n'),
        );
        const s = await startTestServer({
          flavor: flavorName,
          authorization: ['ABAC', 'RBAC'],
          server: { authorizationPolicyFile: good },
        });
        try {
          expect((await s.request('GET', '/api/v1/namespaces', { as: bob })).status).toBe(200);
          expect((await s.request('DELETE', '/api/v1/namespaces/default', { as: bob })).status).toBe(403);
          expect((await s.request('GET', '/apis', { as: bob })).status).toBe(200);
          expect((await s.request('GET', `${RBAC}/namespaces/default/roles`, { as: carol })).status).toBe(
            200,
          );
          expect((await s.request('GET', `${RBAC}/namespaces/default/roles`, { as: bob })).status).toBe(403);
        } finally {
          await s.stop();
        }
        const bad = join(dir, 'bad.jsonl');
        await writeFile(
          bad,
          '# comment\n{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","readonly":"yes"}}\n',
        );
        expect(() =>
          createApiServer({ flavor, authorizationModes: ['ABAC'], authorizationPolicyFile: bad }),
        ).toThrow(`--authorization-policy-file: ${bad}:2: spec.readonly`);
        expect(() =>
          createApiServer({
            flavor,
            authorizationModes: ['ABAC'],
            authorizationPolicyFile: join(dir, 'none'),
          }),
        ).toThrow(/cannot read/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
    it('orchard-apiserver with a bad policy file exits 2 naming the flag, file, line and field', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'abac-cli-'));
      try {
        const bad = join(dir, 'bad.jsonl');
        await writeFile(
          bad,
          '\n{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","resource":7}}\n',
        );
        const r = await runCli([
          '--storage',
          'memory',
          '--port',
          '0',
          '--flavor',
          flavorName,
          '--authorization-mode',
          'ABAC,RBAC',
          '--authorization-policy-file',
          bad,
        ]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(`--authorization-policy-file: ${bad}:2: spec.resource`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('the unsafe-delete permission', () => {
    it('deleting an unreadable object needs unsafe-delete-ignore-read-errors besides delete', async () => {
      const store = createMemoryStore();
      const s = await startTestServer({
        flavor: flavorName,
        server: { store, featureGates: { AllowUnsafeMalformedObjectDeletion: true } },
      });
      try {
        const key = '/core/configmaps/default/bad';
        await store.create(key, new TextEncoder().encode('\u0000not json at all{'));
        const rules = (verbs: string[]) => [{ verbs, apiGroups: [''], resources: ['configmaps'] }];
        const r = await createAndAuthorize(s, `${RBAC}/namespaces/default/roles`, {
          ...role('cm-delete', rules(['delete']), 'default'),
        });
        await createAndAuthorize(
          s,
          `${RBAC}/namespaces/default/rolebindings`,
          binding('ursula', 'Role', 'cm-delete', 'ursula', 'default'),
        );
        const ursula = { username: 'ursula' };
        const unsafe = () =>
          s.request('DELETE', '/api/v1/namespaces/default/configmaps/bad', {
            as: ursula,
            body: { ignoreStoreReadErrorWithClusterBreakingPotential: true },
          });
        const refused = await unsafe();
        expect(refused.status, refused.text).toBe(403);
        expect((refused.json as Obj).message).toContain(
          'configmaps "bad" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors"',
        );
        expect((await store.get(key)).kv).toBeDefined();
        const widened = await s.request('PUT', `${RBAC}/namespaces/default/roles/cm-delete`, {
          body: { ...r, rules: rules(['delete', 'unsafe-delete-ignore-read-errors']) },
        });
        expect(widened.status, widened.text).toBe(200);
        await s.server.authorization.synced(Number((widened.json as Obj).metadata.resourceVersion));
        const done = await unsafe();
        expect(done.status, done.text).toBe(200);
        expect((await store.get(key)).kv).toBeUndefined();
      } finally {
        await s.stop();
        await store.close();
      }
    });
  });
});
