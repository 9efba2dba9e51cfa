import { flavorByName } from '@orchard/meta';
import {
  createAndAuthorize,
  serviceAccountTokenAuthentication,
  startTestServer,
  type TestServer,
  type TestUser,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Node authorizer and NodeRestriction admission through the real server (issue 14 items 4 and
 * 8), under the default `--authorization-mode=Node,RBAC`: a node identity (client certificate
 * CN=system:node:n1, O=system:nodes from the test CA) reads only its own pods and the objects they
 * use, lists pods only with its `spec.nodeName` field selector, writes only its own Lease, pod status
 * and mirror pods, and deletes only pods bound to it. Messages are upstream's. Under both flavors:
 * the node identity is `system:node:<name>` in `system:nodes` in either (doc 2 §5.3); the Lease
 * group and namespace and the mirror-pod annotation are the flavor's.
 */
type Obj = Record<string, any>;
const n1: TestUser = { username: 'system:node:n1', groups: ['system:nodes'] };
const core = '/api/v1/namespaces/default';

describe.each(['orch', 'kubernetes'] as const)('node authorization (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  const coordination = flavor.group('coordination');
  const leases = `/apis/${coordination}/v1/namespaces/${flavor.nodeLeaseNamespace}/leases`;
  const mirrorAnnotation = `${flavorName === 'kubernetes' ? 'kubernetes.io' : flavor.domain}/config.mirror`;
  let api: TestServer;

  function pod(name: string, nodeName: string | undefined, spec: Obj = {}, metadata: Obj = {}): Obj {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, ...metadata },
      spec: {
        ...(nodeName ? { nodeName } : {}),
        containers: [{ name: 'c', image: 'nginx:1' }],
        ...spec,
      },
    };
  }

  const adminCreate = (path: string, body: Obj): Promise<Obj> => createAndAuthorize(api, path, body);

  const forbidden = (resource: string, name: string, verb: string, reason: string, ns = 'default') =>
    `${resource} "${name}" is forbidden: User "system:node:n1" cannot ${verb} resource "${resource}" in API group "" in the namespace "${ns}": ${reason}`;
  const noRelation = "no relationship found between node 'n1' and this object";

  beforeAll(async () => {
    api = await startTestServer({
      flavor: flavorName,
      server: {
        authentication: serviceAccountTokenAuthentication(),
      },
    });
    for (const name of ['runner', 'idle'])
      await adminCreate(`${core}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name },
      });
    for (const name of ['bound-secret', 'other-secret'])
      await adminCreate(`${core}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name } });
    await adminCreate(`${core}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bound-cm' },
    });
    await adminCreate(
      `${core}/pods`,
      pod('web', 'n1', {
        serviceAccountName: 'runner',
        volumes: [{ name: 's', secret: { secretName: 'bound-secret' } }],
        containers: [{ name: 'c', image: 'nginx:1', envFrom: [{ configMapRef: { name: 'bound-cm' } }] }],
      }),
    );
    await adminCreate(
      `${core}/pods`,
      pod('elsewhere', 'n2', { volumes: [{ name: 's', secret: { secretName: 'other-secret' } }] }),
    );
    await adminCreate(`${core}/pods`, pod('pending', undefined));
  });
  afterAll(async () => {
    await api.stop();
  });

  describe('Node authorizer', () => {
    it('reads pods bound to the node and the secrets and configmaps they use, nothing else', async () => {
      const table: [string, number, string?][] = [
        [`${core}/pods/web`, 200],
        [`${core}/secrets/bound-secret`, 200],
        [`${core}/configmaps/bound-cm`, 200],
        [`${core}/pods/elsewhere`, 403, forbidden('pods', 'elsewhere', 'get', noRelation)],
        [`${core}/pods/pending`, 403, forbidden('pods', 'pending', 'get', noRelation)],
        [`${core}/secrets/other-secret`, 403, forbidden('secrets', 'other-secret', 'get', noRelation)],
        [
          `${core}/secrets`,
          403,
          `secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "default": No Object name found`,
        ],
      ];
      for (const [path, status, message] of table) {
        const r = await api.request('GET', path, { as: n1 });
        expect(r.status, `${path}: ${r.text}`).toBe(status);
        if (message) expect((r.json as Obj).message, path).toBe(message);
      }
    });

    it('lists pods only with its own spec.nodeName field selector', async () => {
      const mine = await api.request('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1', { as: n1 });
      expect(mine.status, mine.text).toBe(200);
      expect((mine.json as Obj).items.map((p: Obj) => p.metadata.name)).toEqual(['web']);
      const all = await api.request('GET', '/api/v1/pods', { as: n1 });
      expect(all.status).toBe(403);
      expect((all.json as Obj).message).toBe(
        'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
      );
      const other = await api.request('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2', { as: n1 });
      expect(other.status).toBe(403);
    });

    it('follows the static node rules elsewhere, and gives nothing to a look-alike outside system:nodes', async () => {
      expect((await api.request('GET', `${core}/services`, { as: n1 })).status).toBe(200);
      expect(
        (await api.request('GET', '/apis/apps/v1/namespaces/default/deployments', { as: n1 })).status,
      ).toBe(403);
      const fake = await api.request('GET', `${core}/pods/web`, { as: { username: 'system:node:n1' } });
      expect(fake.status).toBe(403);
    });

    it('follows the graph: a new pod opens its secret, deleting the pod closes it', async () => {
      await adminCreate(`${core}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'late' } });
      expect((await api.request('GET', `${core}/secrets/late`, { as: n1 })).status).toBe(403);
      await adminCreate(`${core}/pods`, pod('late', 'n1', { imagePullSecrets: [{ name: 'late' }] }));
      expect((await api.request('GET', `${core}/secrets/late`, { as: n1 })).status).toBe(200);
      const del = await api.request('DELETE', `${core}/pods/late?gracePeriodSeconds=0`);
      expect(del.status, del.text).toBe(200);
      const list = await api.request('GET', `${core}/pods`);
      await api.server.authorization.synced(Number((list.json as Obj).metadata.resourceVersion));
      expect((await api.request('GET', `${core}/secrets/late`, { as: n1 })).status).toBe(403);
    });
  });

  describe('NodeRestriction', () => {
    it(`a node writes only its own Lease in ${flavor.nodeLeaseNamespace}`, async () => {
      const lease = (name: string) => ({
        apiVersion: `${coordination}/v1`,
        kind: 'Lease',
        metadata: { name },
        spec: { holderIdentity: name, leaseDurationSeconds: 40 },
      });
      const own = await api.request('POST', leases, { as: n1, body: lease('n1') });
      expect(own.status, own.text).toBe(201);
      const other = await api.request('POST', leases, { as: n1, body: lease('n2') });
      expect(other.status).toBe(403);
      expect((other.json as Obj).message).toBe(
        `leases.${coordination} "n2" is forbidden: can only access node lease with the same name as the requesting node`,
      );
      const renew = await api.request('PUT', `${leases}/n1`, {
        as: n1,
        body: { ...(own.json as Obj), spec: { holderIdentity: 'n1', leaseDurationSeconds: 41 } },
      });
      expect(renew.status, renew.text).toBe(200);
      const elsewhere = await api.request('POST', `/apis/${coordination}/v1/namespaces/default/leases`, {
        as: n1,
        body: lease('n1'),
      });
      expect(elsewhere.status).toBe(403);
      expect((elsewhere.json as Obj).message).toMatch(
        new RegExp(`can only access leases in the "${flavor.nodeLeaseNamespace}" system namespace$`),
      );
    });

    it('updates the status of its own pods only, and not their labels', async () => {
      const current = (await api.request('GET', `${core}/pods/web`)).json as Obj;
      const ok = await api.request('PUT', `${core}/pods/web/status`, {
        as: n1,
        body: { ...current, status: { phase: 'Running' } },
      });
      expect(ok.status, ok.text).toBe(200);
      expect((ok.json as Obj).status.phase).toBe('Running');
      const relabel = await api.request('PATCH', `${core}/pods/web/status`, {
        as: n1,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { labels: { stolen: 'yes' } } }),
      });
      expect(relabel.status).toBe(403);
      expect((relabel.json as Obj).message).toBe(
        'pods "web" is forbidden: node "n1" cannot update labels through pod status',
      );
      const theirs = await api.request('PATCH', `${core}/pods/elsewhere/status`, {
        as: n1,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Failed' } }),
      });
      expect(theirs.status).toBe(403);
      expect((theirs.json as Obj).message).toBe(
        'pods "elsewhere" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
      );
    });

    it('creates only mirror pods bound to itself, and deletes only pods bound to it', async () => {
      const plain = await api.request('POST', `${core}/pods`, { as: n1, body: pod('mine', 'n1') });
      expect(plain.status).toBe(403);
      expect((plain.json as Obj).message).toBe(
        `pods "mine" is forbidden: pod does not have "${mirrorAnnotation}" annotation, node "n1" can only create mirror pods`,
      );
      const mirror = (nodeName: string, owner: Obj) =>
        pod('static', nodeName, {}, { annotations: { [mirrorAnnotation]: 'x' }, ownerReferences: [owner] });
      const owner = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u1', controller: true };
      const foreign = await api.request('POST', `${core}/pods`, { as: n1, body: mirror('n2', owner) });
      expect((foreign.json as Obj).message).toBe(
        'pods "static" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
      );
      const notController = await api.request('POST', `${core}/pods`, {
        as: n1,
        body: mirror('n1', { ...owner, controller: false }),
      });
      expect((notController.json as Obj).message).toBe(
        'pods "static" is forbidden: node "n1" can only create pods with a controller owner reference set to itself',
      );
      // This server serves no Node objects: the owner's uid cannot be verified (upstream: not found).
      const unverified = await api.request('POST', `${core}/pods`, { as: n1, body: mirror('n1', owner) });
      expect(unverified.status).toBe(404);
      expect((unverified.json as Obj).message).toBe('nodes "n1" not found');

      const theirs = await api.request('DELETE', `${core}/pods/elsewhere`, { as: n1 });
      expect(theirs.status).toBe(403);
      expect((theirs.json as Obj).message).toBe(
        'pods "elsewhere" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
      );
      const missing = await api.request('DELETE', `${core}/pods/nothing`, { as: n1 });
      expect(missing.status).toBe(404);
      await adminCreate(`${core}/pods`, pod('doomed', 'n1'));
      const own = await api.request('DELETE', `${core}/pods/doomed`, { as: n1 });
      expect(own.status, own.text).toBe(200);
    });

    it("requests tokens only for its pods' service accounts, bound to a pod on itself", async () => {
      const web = (await api.request('GET', `${core}/pods/web`)).json as Obj;
      const elsewhere = (await api.request('GET', `${core}/pods/elsewhere`)).json as Obj;
      const tokenFor = (account: string, ref?: Obj) =>
        api.request('POST', `${core}/serviceaccounts/${account}/token`, {
          as: n1,
          body: {
            apiVersion: `${flavor.group('authentication')}/v1`,
            kind: 'TokenRequest',
            spec: ref ? { boundObjectRef: ref } : {},
          },
        });
      const bound = (p: Obj) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        name: p.metadata.name,
        uid: p.metadata.uid,
      });
      const ok = await tokenFor('runner', bound(web));
      expect(ok.status, ok.text).toBe(201);
      expect(typeof (ok.json as Obj).status.token).toBe('string');
      const table: [string, Obj | undefined, number, string][] = [
        ['runner', undefined, 403, 'node requested token not bound to a pod'],
        [
          'runner',
          { ...bound(web), uid: undefined },
          403,
          'node requested token with a pod binding without a uid',
        ],
        [
          'runner',
          { ...bound(web), uid: 'not-it' },
          403,
          'the UID in the bound object reference (not-it) does not match the UID in record. The object might have been deleted and then recreated',
        ],
        [
          'runner',
          bound(elsewhere),
          403,
          'node requested token bound to a pod scheduled on a different node',
        ],
      ];
      for (const [account, ref, status, reason] of table) {
        const r = await tokenFor(account, ref);
        expect(r.status, r.text).toBe(status);
        expect((r.json as Obj).message).toBe(`serviceaccounts "${account}" is forbidden: ${reason}`);
      }
      // An account no pod of the node runs as: the Node authorizer refuses before admission.
      const idle = await tokenFor('idle', bound(web));
      expect(idle.status).toBe(403);
      expect((idle.json as Obj).message).toBe(
        `serviceaccounts "idle" is forbidden: User "system:node:n1" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default": ${noRelation}`,
      );
    });

    it('leaves other users alone', async () => {
      const r = await api.request('POST', leases, {
        body: { apiVersion: `${coordination}/v1`, kind: 'Lease', metadata: { name: 'admin-lease' } },
      });
      expect(r.status, r.text).toBe(201);
    });
  });

  describe('without AuthorizeNodeWithSelectors', () => {
    it('a node lists every pod, as the static node rules allow', async () => {
      const plain = await startTestServer({
        flavor: flavorName,
        server: { featureGates: { AuthorizeNodeWithSelectors: false } },
      });
      try {
        const r = await plain.request('GET', '/api/v1/pods', { as: n1 });
        expect(r.status, r.text).toBe(200);
        const secret = await plain.request('GET', `${core}/secrets/x`, { as: n1 });
        expect(secret.status).toBe(403);
      } finally {
        await plain.stop();
      }
    });
  });
});
