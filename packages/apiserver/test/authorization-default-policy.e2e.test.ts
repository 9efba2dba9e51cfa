import { type Flavor, flavorByName } from '@orchard/meta';
import { aggregatedRules, autoupdateAnnotation, type ClusterRole, defaultPolicy } from '@orchard/rbac';
import { createMemoryStore } from '@orchard/store';
import { createAndAuthorize, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/server.js';
import { rbacFixtures, stripServerMetadata as strip } from './helpers/rbac-fixtures.js';

/**
 * The default roles and bindings (issue 14 item 3, spec doc 2 §5.3) under both flavors: a fresh
 * server holds exactly the golden policy translated to the flavor (names, groups, aggregation labels,
 * namespaces, users), reconciled at every start unless `autoupdate` is "false"; the aggregation
 * controller fills admin/edit/view from ClusterRoles labelled `rbac.authorization.<domain>/aggregate-to-*`.
 */
type Obj = Record<string, any>;
const byName = (a: Obj, b: Obj) => (a.metadata.name < b.metadata.name ? -1 : 1);

/** The golden default policy with admin/edit/view filled as the aggregation controller fills them. */
function goldenFilled(flavor: Flavor) {
  const golden = defaultPolicy(flavor);
  // Aggregation is transitive (edit is labelled aggregate-to-admin): fill until nothing changes.
  const filled = new Map(golden.clusterRoles.map((r) => [r.metadata.name, r as ClusterRole]));
  for (let changed = true, n = 0; changed && n < 10; n++) {
    changed = false;
    for (const [name, r] of filled) {
      const rules = aggregatedRules(r, filled.values());
      if (rules && JSON.stringify(rules) !== JSON.stringify(r.rules ?? [])) {
        filled.set(name, { ...r, rules });
        changed = true;
      }
    }
  }
  return { golden, filled };
}

describe.each(['orch', 'kubernetes'] as const)('the default policy (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const { G, RBAC, clusterRole, binding } = rbacFixtures(flavor);
  let api: TestServer;
  const adminCreate = (path: string, body: Obj): Promise<Obj> => createAndAuthorize(api, path, body);

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  describe('the default policy', () => {
    it('a fresh server holds exactly the golden ClusterRoles and bindings; admin/edit/view are aggregated', async () => {
      const { golden, filled } = goldenFilled(flavor);
      const crs = ((await api.request('GET', `${RBAC}/clusterroles`)).json as Obj).items as Obj[];
      const crbs = ((await api.request('GET', `${RBAC}/clusterrolebindings`)).json as Obj).items as Obj[];
      const served = new Map(crs.map((o) => [o.metadata.name, strip(o)]));
      expect([...served.keys()].sort()).toEqual(golden.clusterRoles.map((r) => r.metadata.name).sort());
      for (const want of golden.clusterRoles) {
        const got = served.get(want.metadata.name) as Obj;
        if (want.aggregationRule) {
          const { rules, ...rest } = got;
          const { rules: _none, ...wantRest } = want as Obj;
          expect(rest).toEqual(wantRest);
          expect(rules).toEqual(filled.get(want.metadata.name)?.rules);
          expect((rules as unknown[]).length).toBeGreaterThan(0);
        } else expect(got).toEqual(want);
      }
      expect(crbs.map(strip).sort(byName)).toEqual([...golden.clusterRoleBindings].sort(byName));
      const roles = ((await api.request('GET', `${RBAC}/roles`)).json as Obj).items as Obj[];
      expect(roles.map(strip).sort(byName)).toEqual([...golden.roles].sort(byName));
      const rbs = ((await api.request('GET', `${RBAC}/rolebindings`)).json as Obj).items as Obj[];
      expect(rbs.map(strip).sort(byName)).toEqual([...golden.roleBindings].sort(byName));
    });

    it("names, labels and subjects are the flavor's", () => {
      const { clusterRoles, clusterRoleBindings, roles } = defaultPolicy(flavor);
      const names = clusterRoles.map((r) => r.metadata.name);
      const product = flavorName === 'orch' ? 'orch' : 'kube';
      for (const n of ['cluster-admin', 'admin', 'edit', 'view', 'system:monitoring', 'system:node'])
        expect(names).toContain(n);
      expect(names).toContain(`system:${product}-scheduler`);
      expect(names).toContain(`system:${product}-controller-manager`);
      const edit = clusterRoles.find((r) => r.metadata.name === 'edit') as Obj;
      expect(edit.metadata.labels).toMatchObject({ [`${G}/aggregate-to-admin`]: 'true' });
      const bootstrapping = `${flavorName === 'orch' ? 'orch.io' : 'kubernetes.io'}/bootstrapping`;
      for (const r of clusterRoles)
        expect(r.metadata.labels?.[bootstrapping], r.metadata.name).toBe('rbac-defaults');
      expect(clusterRoleBindings.find((b) => b.metadata.name === 'system:node-proxier')?.subjects).toEqual([
        { apiGroup: G, kind: 'User', name: `system:${product}-proxy` },
      ]);
      for (const r of roles) expect(r.metadata.namespace).toMatch(new RegExp(`^${product}-(system|public)$`));
      const everything = JSON.stringify(defaultPolicy(flavor));
      // Upstream names of identifiers (groups, label domains, namespaces, users) never leak into orch.
      if (flavorName === 'orch')
        expect(everything).not.toMatch(/k8s\.io|kubernetes\.io|"kube-(system|public)"|system:kube-/);
    });

    it('restarts reconcile missing rules and subjects back, except with autoupdate "false"', async () => {
      const store = createMemoryStore();
      const first = createApiServer({ flavor, store });
      await first.ready;
      const key = (r: string, n: string) => first.objects.key({ group: G, resource: r, namespace: '' }, n);
      await first.objects.update(key('clusterroles', 'system:discovery'), (o) => ({ ...o, rules: [] }));
      await first.objects.update(key('clusterroles', 'system:basic-user'), (o) => ({
        ...o,
        metadata: { ...o.metadata, annotations: { [autoupdateAnnotation(flavor)]: 'false' } },
        rules: [],
      }));
      await first.objects.update(key('clusterrolebindings', 'system:monitoring'), (o) => ({
        ...o,
        subjects: [],
      }));
      await first.close();
      const second = createApiServer({ flavor, store });
      await second.ready;
      const get = async (r: string, n: string) => (await second.objects.get(key(r, n))).object as Obj;
      const policy = defaultPolicy(flavor);
      expect((await get('clusterroles', 'system:discovery')).rules).toEqual(
        policy.clusterRoles.find((r) => r.metadata.name === 'system:discovery')?.rules,
      );
      expect((await get('clusterroles', 'system:basic-user')).rules).toEqual([]);
      expect((await get('clusterrolebindings', 'system:monitoring')).subjects).toEqual(
        policy.clusterRoleBindings.find((r) => r.metadata.name === 'system:monitoring')?.subjects,
      );
      await second.close();
      await store.close();
    });
  });

  describe('aggregation', () => {
    const rulesOf = async (name: string) =>
      (((await api.request('GET', `${RBAC}/clusterroles/${name}`)).json as Obj).rules as Obj[]).filter((r) =>
        r.apiGroups?.includes('example.com'),
      );

    it('admin, edit and view pick up ClusterRoles labelled aggregate-to-* and lose them when the label goes', async () => {
      const made: Obj[] = [];
      for (const to of ['admin', 'edit', 'view'])
        made.push(
          await adminCreate(
            `${RBAC}/clusterroles`,
            clusterRole(
              `widgets-${to}`,
              [{ verbs: [to], apiGroups: ['example.com'], resources: ['widgets'] }],
              {
                [`${G}/aggregate-to-${to}`]: 'true',
              },
            ),
          ),
        );
      const verbsOf = async (name: string) => (await rulesOf(name)).flatMap((r) => r.verbs).sort();
      // edit is aggregated into admin, view into edit (the default labels).
      expect(await verbsOf('view')).toEqual(['view']);
      expect(await verbsOf('edit')).toEqual(['edit', 'view']);
      expect(await verbsOf('admin')).toEqual(['admin', 'edit', 'view']);
      // The aggregated rule takes effect through a binding of view.
      await adminCreate(`${RBAC}/namespaces/default/rolebindings`, {
        ...binding('team-a-view', 'ClusterRole', 'view', 'x', 'default'),
        subjects: [{ kind: 'Group', name: 'team-a', apiGroup: G }],
      });
      const view = await api.request(
        'POST',
        `/apis/${flavor.group('authorization')}/v1/subjectaccessreviews`,
        {
          body: {
            apiVersion: `${flavor.group('authorization')}/v1`,
            kind: 'SubjectAccessReview',
            spec: {
              user: 'carol',
              groups: ['team-a'],
              resourceAttributes: {
                verb: 'view',
                group: 'example.com',
                resource: 'widgets',
                namespace: 'default',
              },
            },
          },
        },
      );
      expect((view.json as Obj).status.allowed, view.text).toBe(true);
      for (const created of made) {
        const unlabelled = await api.request('PUT', `${RBAC}/clusterroles/${created.metadata.name}`, {
          body: { ...created, metadata: { ...created.metadata, labels: {} } },
        });
        expect(unlabelled.status).toBe(200);
        await api.server.authorization.synced(Number((unlabelled.json as Obj).metadata.resourceVersion));
      }
      for (const name of ['admin', 'edit', 'view']) expect(await rulesOf(name), name).toEqual([]);
    });

    it('a label of the other flavor aggregates nothing', async () => {
      const other = flavorName === 'orch' ? 'rbac.authorization.k8s.io' : 'rbac.authorization.orch.io';
      await adminCreate(
        `${RBAC}/clusterroles`,
        clusterRole(
          'widgets-foreign',
          [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }],
          {
            [`${other}/aggregate-to-view`]: 'true',
          },
        ),
      );
      expect(await rulesOf('view')).toEqual([]);
    });

    it('manual rules on an aggregated role are overwritten', async () => {
      const view = (await api.request('GET', `${RBAC}/clusterroles/view`)).json as Obj;
      const r = await api.request('PUT', `${RBAC}/clusterroles/view`, {
        body: { ...view, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] },
      });
      expect(r.status).toBe(200);
      await api.server.authorization.synced(Number((r.json as Obj).metadata.resourceVersion));
      const after = (await api.request('GET', `${RBAC}/clusterroles/view`)).json as Obj;
      expect(after.rules).toEqual(view.rules);
    });
  });
});
