import { request as httpsRequest } from 'node:https';
import { generateCa, issueClientCert } from '@orchard/apiserver/tls';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The operations of the issue over plain HTTPS requests under the default `orch` flavor. */
describe('reference server over HTTPS (orch flavor)', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  });
  afterAll(async () => {
    await api.stop();
  });

  it('serves /version with a semver gitVersion of release 1.32', async () => {
    const r = await api.request('GET', '/version');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ major: '1', minor: '32' });
    expect((r.json as { gitVersion: string }).gitVersion).toMatch(/^v1\.32\.\d+(-[0-9A-Za-z.-]+)?$/);
  });

  it('names only orch.io groups in discovery', async () => {
    const legacy = await api.request('GET', '/apis');
    const names = (legacy.json as { groups: { name: string }[] }).groups.map((g) => g.name);
    expect(names.length).toBeGreaterThan(0);
    // `apps`, `autoscaling` and `batch` are unqualified in every flavor, as upstream's legacy-named
    // groups (spec §9.4 table).
    for (const n of names) expect(n).toMatch(/\.orch\.io$|^apps$|^autoscaling$|^batch$/);
    const agg = await api.request('GET', '/apis', {
      headers: {
        accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList,application/json',
      },
    });
    expect(agg.headers['content-type']).toBe(
      'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList',
    );
    const items = (agg.json as { items: { metadata: { name: string } }[] }).items;
    expect(items.map((i) => i.metadata.name)).toEqual(names);
    expect(JSON.stringify(agg.json)).not.toContain('k8s.io');
    const leases = await api.request('GET', '/apis/coordination.orch.io/v1');
    expect(leases.json).toMatchObject({
      kind: 'APIResourceList',
      groupVersion: 'coordination.orch.io/v1',
      resources: [{ name: 'leases', namespaced: true, kind: 'Lease' }],
    });
    expect((await api.request('GET', '/apis/coordination.k8s.io/v1')).status).toBe(404);
  });

  it('serves the aggregated core group with responseKind, scope, shortNames', async () => {
    const r = await api.request('GET', '/api', {
      headers: {
        accept: 'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      },
    });
    expect(r.headers['content-type']).toContain('v=v2beta1');
    const resources =
      (r.json as { items: { versions: { resources: Record<string, unknown>[] }[] }[] }).items[0]?.versions[0]
        ?.resources ?? [];
    expect(resources.find((x) => x.resource === 'configmaps')).toMatchObject({
      responseKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      scope: 'Namespaced',
      shortNames: ['cm'],
      singularResource: 'configmap',
    });
    const legacy = await api.request('GET', '/api/v1');
    expect((legacy.json as { resources: { name: string }[] }).resources.map((x) => x.name)).toContain(
      'namespaces/status',
    );
  });

  it('has the default namespaces of the flavor', async () => {
    const r = await api.request('GET', '/api/v1/namespaces');
    const names = (r.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
    expect(names.sort()).toEqual(['default', 'orch-node-lease', 'orch-public', 'orch-system']);
    expect(r.json).toMatchObject({ kind: 'NamespaceList', apiVersion: 'v1' });
  });

  it('creates, gets, lists, updates, patches and deletes a config map', async () => {
    expect(
      (
        await api.request('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } },
        })
      ).status,
    ).toBe(201);
    const created = await api.request('POST', '/api/v1/namespaces/demo/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } },
    });
    expect(created.status).toBe(201);
    const c = created.json as { metadata: Record<string, string> };
    expect(c.metadata).toMatchObject({ name: 'c', namespace: 'demo' });
    expect(c.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(c.metadata.resourceVersion).toMatch(/^\d+$/);

    const got = await api.request('GET', '/api/v1/namespaces/demo/configmaps/c');
    expect(got.json).toEqual(created.json);

    const all = await api.request('GET', '/api/v1/configmaps');
    expect((all.json as { kind: string }).kind).toBe('ConfigMapList');
    expect((all.json as { items: unknown[] }).items).toContainEqual(created.json);

    const stale = await api.request('PUT', '/api/v1/namespaces/demo/configmaps/c', {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', resourceVersion: '1' },
        data: { a: 'x' },
      },
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ kind: 'Status', reason: 'Conflict' });

    const updated = await api.request('PUT', '/api/v1/namespaces/demo/configmaps/c', {
      body: { ...(created.json as object), data: { a: 'x' } },
    });
    expect(updated.status).toBe(200);
    const u = updated.json as { metadata: Record<string, string>; data: Record<string, string> };
    expect(u.data).toEqual({ a: 'x' });
    expect(u.metadata.uid).toBe(c.metadata.uid);
    expect(Number(u.metadata.resourceVersion)).toBeGreaterThan(Number(c.metadata.resourceVersion));

    const patched = await api.request('PATCH', '/api/v1/namespaces/demo/configmaps/c', {
      body: JSON.stringify({ metadata: { labels: { env: 'prod' } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ metadata: { labels: { env: 'prod' } }, data: { a: 'x' } });

    const selected = await api.request('GET', '/api/v1/namespaces/demo/configmaps?labelSelector=env%3Dprod');
    expect((selected.json as { items: unknown[] }).items).toHaveLength(1);
    const none = await api.request('GET', '/api/v1/namespaces/demo/configmaps?labelSelector=env%3Ddev');
    expect((none.json as { items: unknown[] }).items).toHaveLength(0);

    const del = await api.request('DELETE', '/api/v1/namespaces/demo/configmaps/c');
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'c', kind: 'configmaps' },
    });
    const gone = await api.request('GET', '/api/v1/namespaces/demo/configmaps/c');
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ message: 'configmaps "c" not found', reason: 'NotFound', code: 404 });
  });

  it('indents JSON with pretty=true', async () => {
    const r = await api.request('GET', '/api/v1/namespaces/default?pretty=true');
    expect(r.text).toMatch(/^\{\n {2}"apiVersion": "v1",\n/);
    expect((await api.request('GET', '/api/v1/namespaces/default')).text).toMatch(/^\{"apiVersion":"v1",/);
  });

  it('fills generateName and answers YAML when asked', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: gen-\ndata:\n  k: v\n',
      headers: { 'content-type': 'application/yaml', accept: 'application/yaml' },
    });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toBe('application/yaml');
    expect(r.text).toMatch(/name: gen-[a-z0-9]{5}\n/);
  });

  it('creates a lease with PUT (create-on-update) in the flavor group', async () => {
    const path = '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases/node-1';
    const r = await api.request('PUT', path, {
      body: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'node-1' },
        spec: { holderIdentity: 'node-1' },
      },
    });
    expect(r.status).toBe(201);
    const again = await api.request('PUT', path, {
      body: { ...(r.json as object), spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 } },
    });
    expect(again.status).toBe(200);
    // Config maps do not allow it.
    const cm = await api.request('PUT', '/api/v1/namespaces/default/configmaps/nope', {
      body: { metadata: { name: 'nope' } },
    });
    expect(cm.status).toBe(404);
  });

  it('honours dryRun=All', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: { metadata: { name: 'dry' } },
    });
    expect(r.status).toBe(201);
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });

  it('deletes a collection by label', async () => {
    for (const n of ['d1', 'd2', 'd3']) {
      await api.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: n, labels: { batch: n === 'd3' ? 'keep' : 'drop' } } },
      });
    }
    const r = await api.request('DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=batch%3Ddrop');
    expect(r.status).toBe(200);
    expect((r.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(
      ['d1', 'd2'],
    );
    const left = await api.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=batch');
    expect(
      (left.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name),
    ).toEqual(['d3']);
  });

  it('pages a list with limit and continue at one snapshot', async () => {
    await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'paged' } } });
    for (let i = 0; i < 5; i++)
      await api.request('POST', '/api/v1/namespaces/paged/configmaps', {
        body: { metadata: { name: `p${i}` } },
      });
    const first = (await api.request('GET', '/api/v1/namespaces/paged/configmaps?limit=2')).json as {
      metadata: { continue?: string; resourceVersion: string; remainingItemCount?: number };
      items: unknown[];
    };
    expect(first.items).toHaveLength(2);
    expect(first.metadata.remainingItemCount).toBe(3);
    await api.request('POST', '/api/v1/namespaces/paged/configmaps', { body: { metadata: { name: 'p9' } } });
    const names: string[] = [];
    let page = first;
    for (let i = 0; i < 10; i++) {
      names.push(...(page.items as { metadata: { name: string } }[]).map((x) => x.metadata.name));
      if (!page.metadata.continue) break;
      const next = await api.request(
        'GET',
        `/api/v1/namespaces/paged/configmaps?limit=2&continue=${encodeURIComponent(page.metadata.continue)}`,
      );
      page = next.json as typeof first;
      expect(page.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    }
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });

  it('serves health endpoints with verbose, exclude and single checks', async () => {
    const plain = await api.request('GET', '/readyz');
    expect(plain.status).toBe(200);
    expect(plain.text).toBe('ok');
    const verbose = await api.request('GET', '/livez?verbose&exclude=log');
    expect(verbose.text).toContain('[+]ping ok');
    expect(verbose.text).toContain('[+]log excluded: ok');
    expect(verbose.text).toContain('[+]etcd ok');
    expect(verbose.text).toContain('[+]poststarthook/bootstrap-controller ok');
    expect(verbose.text).toMatch(/livez check passed\n$/);
    expect((await api.request('GET', '/readyz?verbose')).text).toContain('[+]shutdown ok');
    expect((await api.request('GET', '/livez/ping')).text).toBe('ok');
    expect((await api.request('GET', '/livez/poststarthook/bootstrap-controller')).status).toBe(200);
    expect((await api.request('GET', '/livez/nope')).status).toBe(404);
    expect((await api.request('GET', '/healthz')).status).toBe(200);
  });

  it('answers who the caller is (selfsubjectreviews) and allows everything (selfsubjectaccessreviews)', async () => {
    const who = await api.request('POST', '/apis/authentication.orch.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(who.status).toBe(201);
    expect(who.json).toMatchObject({
      status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
    });
    const can = await api.request('POST', '/apis/authorization.orch.io/v1/selfsubjectaccessreviews', {
      body: {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
      },
    });
    expect(can.json).toMatchObject({ status: { allowed: true } });
  });

  it('rejects a client certificate from another CA with 401', async () => {
    const otherCa = await generateCa('someone-else');
    const cert = await issueClientCert(otherCa, 'admin', ['system:masters']);
    const status = await new Promise<number>((resolve, reject) => {
      httpsRequest(
        `${api.url}/api/v1/namespaces`,
        { ca: api.tls?.ca.cert, cert: cert.cert, key: cert.key },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(401);
  });

  it('refuses requests without a client certificate (system:anonymous, 403), but serves health and version', async () => {
    const r = await api.request('GET', '/api/v1/namespaces', { anonymous: true });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect((await api.request('GET', '/livez', { anonymous: true })).status).toBe(200);
    expect((await api.request('GET', '/version', { anonymous: true })).status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  it('fails /readyz at once and keeps serving for shutdownDelaySeconds', async () => {
    const api = await startTestServer({ insecureHttp: true, server: { shutdownDelaySeconds: 3 } });
    expect((await api.request('GET', '/readyz')).status).toBe(200);
    const stopped = api.stop();
    const ready = await api.request('GET', '/readyz?verbose');
    expect(ready.status).toBe(500);
    expect(ready.text).toContain('[-]shutdown failed');
    expect((await api.request('GET', '/livez')).status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/default')).status).toBe(200);
    await stopped;
  });
});
