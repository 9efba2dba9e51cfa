import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Request edge cases (names, pod field selectors, dryRun, namespace labels, warnings, resourceVersion
 * "0", JSON Patch move, force, create on update): independent checks against spec doc 1 and upstream
 * 1.32 with cases the other suites do not
 * write: each case here failed before its fix.
 */

interface Raw {
  status: number;
  json: { kind?: string; reason?: string; code?: number; message?: string; status?: { phase?: string } };
}

/** One request with the path sent byte for byte (`request` would resolve `..`); non-JSON reads as `{}`. */
async function raw(api: TestServer, method: string, path: string): Promise<Raw> {
  const r = await api.raw(method, path);
  return { status: r.status, json: (r.json ?? {}) as Raw['json'] };
}

describe.each(['orch', 'kubernetes'] as const)('spec QA (%s flavor)', (flavor) => {
  let api: TestServer;
  const ns = 'qa';
  const cms = `/api/v1/namespaces/${ns}/configmaps`;

  beforeAll(async () => {
    api = await startTestServer({ flavor, insecureHttp: true });
    const n = await api.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    });
    expect(n.status).toBe(201);
  });
  afterAll(async () => {
    await api.stop();
  });

  describe('names that are not one path segment (upstream: 400 Name parameter invalid)', () => {
    it.each([
      ['GET', `${cms}/..`, `"..": may not be '..'`],
      ['GET', `${cms}/%2E%2E`, `"..": may not be '..'`],
      ['GET', `${cms}/%2e`, `".": may not be '.'`],
      ['PUT', `${cms}/..`, `"..": may not be '..'`],
      ['PATCH', `${cms}/%2e%2e`, `"..": may not be '..'`],
      ['GET', `${cms}/a%2Fb`, `"a/b": may not contain '/'`],
      ['GET', `${cms}/a%25b`, `"a%b": may not contain '%'`],
      ['GET', '/api/v1/namespaces/%2e%2e', `"..": may not be '..'`],
    ])('%s %s → 400', async (method, path, message) => {
      const r = await raw(api, method, path);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(r.json.message).toBe(`Name parameter invalid: ${message}`);
    });

    it('a DELETE of configmaps/%2e%2e does not delete the namespace', async () => {
      const r = await raw(api, 'DELETE', `${cms}/%2e%2e`);
      expect(r.status).toBe(400);
      const n = await api.request('GET', `/api/v1/namespaces/${ns}`);
      expect(n.status).toBe(200);
      expect((n.json as Raw['json']).status?.phase).toBe('Active');
    });
  });

  describe('pod field selectors (upstream PodToSelectableFields)', () => {
    beforeAll(async () => {
      for (const [name, spec] of [
        ['p1', { nodeName: 'n1', serviceAccountName: 'sa1' }],
        ['p2', { nodeName: 'n2', hostNetwork: true, restartPolicy: 'Never' }],
        ['p3', {}],
      ] as const) {
        const r = await api.request('POST', `/api/v1/namespaces/${ns}/pods`, {
          body: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name },
            spec: { ...spec, containers: [{ name: 'c', image: 'i' }] },
          },
        });
        expect(r.status).toBe(201);
      }
    });
    const names = async (selector: string, path = `/api/v1/namespaces/${ns}/pods`) => {
      const r = await api.request('GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`);
      expect(r.status, r.text).toBe(200);
      return (r.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
    };
    it.each([
      ['spec.nodeName=n1', ['p1']],
      ['spec.nodeName=', ['p3']],
      ['spec.nodeName!=n1', ['p2', 'p3']],
      ['spec.serviceAccountName=sa1', ['p1']],
      ['spec.hostNetwork=true', ['p2']],
      ['spec.hostNetwork=false', ['p1', 'p3']],
      ['spec.restartPolicy=Never', ['p2']],
      ['status.phase=Pending', ['p1', 'p2', 'p3']],
      ['status.phase=Running', []],
      ['status.podIP=', ['p1', 'p2', 'p3']],
      ['status.nominatedNodeName=', ['p1', 'p2', 'p3']],
      ['spec.schedulerName=x', []],
    ])('%s', async (selector, expected) => {
      expect(await names(selector)).toEqual(expected);
    });
    it('across all namespaces too', async () => {
      expect(await names('spec.nodeName=n2', '/api/v1/pods')).toEqual(['p2']);
    });
    it('a field pods do not select on stays 400', async () => {
      const r = await api.request('GET', `/api/v1/pods?fieldSelector=spec.priority%3D1`);
      expect(r.status).toBe(400);
      expect((r.json as Raw['json']).message).toBe('field label not supported: spec.priority');
    });
  });

  describe('§4.4 dryRun with no value is a normal request (side effects permitted, §4.10)', () => {
    it.each(['dryRun', 'dryRun='])('?%s: create stores, delete removes', async (q) => {
      const name = `nv-${q.length}`;
      const c = await api.request('POST', `${cms}?${q}`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
      });
      expect(c.status, c.text).toBe(201);
      expect((await api.request('GET', `${cms}/${name}`)).status).toBe(200);
      const d = await api.request('DELETE', `${cms}/${name}?${q}`);
      expect(d.status, d.text).toBe(200);
      expect((await api.request('GET', `${cms}/${name}`)).status).toBe(404);
    });
    it('?dryRun=All&dryRun stays a dry run', async () => {
      const c = await api.request('POST', `${cms}?dryRun=All&dryRun`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nv-dry' } },
      });
      expect(c.status, c.text).toBe(201);
      expect((await api.request('GET', `${cms}/nv-dry`)).status).toBe(404);
    });
  });

  describe('namespaces carry the metadata.name label (upstream: set on create and every update)', () => {
    const label = flavor === 'kubernetes' ? 'kubernetes.io/metadata.name' : 'orch.io/metadata.name';
    const labels = async (name: string) =>
      (
        (await api.request('GET', `/api/v1/namespaces/${name}`)).json as {
          metadata: { labels?: Record<string, string> };
        }
      ).metadata.labels;
    it('on create', async () => {
      expect((await labels(ns))?.[label]).toBe(ns);
    });
    it('after a PUT without labels and a merge patch removing it', async () => {
      const put = await api.request('PUT', `/api/v1/namespaces/${ns}`, {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { a: 'b' } } },
      });
      expect(put.status, put.text).toBe(200);
      expect(await labels(ns)).toEqual({ a: 'b', [label]: ns });
      const patch = await api.request('PATCH', `/api/v1/namespaces/${ns}`, {
        body: { metadata: { labels: { [label]: null, a: null } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(patch.status, patch.text).toBe(200);
      expect(await labels(ns)).toEqual({ [label]: ns });
    });
  });

  describe('§4.10 Warn: a Warning for an unknown field whose name is not ASCII', () => {
    it.each([
      ['日本', '日本'],
      ['é', 'é'],
      ['a\u007fb', 'a\\x7fb'],
    ])('%j → 201 with the UTF-8 text in the header, the object stored once', async (field, shown) => {
      const name = `w-${Buffer.from(field).toString('hex')}`;
      const r = await api.request('POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, [field]: 1 },
      });
      expect(r.status, r.text).toBe(201);
      const warning = Buffer.from(String(r.headers.warning), 'latin1').toString('utf8');
      expect(warning).toBe(`299 - "unknown field \\"${shown}\\""`);
      expect((await api.request('GET', `${cms}/${name}`)).status).toBe(200);
    });
  });

  describe('§4.8 resourceVersion "0" in a PUT or PATCH body is an unconditional update (upstream: 0 = unset)', () => {
    it('PUT and merge patch succeed; a stale non-zero version stays 409', async () => {
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rv0' }, data: { a: '1' } };
      expect((await api.request('POST', cms, { body })).status).toBe(201);
      const put = await api.request('PUT', `${cms}/rv0`, {
        body: { ...body, metadata: { name: 'rv0', resourceVersion: '0' }, data: { a: '2' } },
      });
      expect(put.status, put.text).toBe(200);
      expect((put.json as { data: Record<string, string> }).data).toEqual({ a: '2' });
      const patch = await api.request('PATCH', `${cms}/rv0`, {
        body: { metadata: { resourceVersion: '0' }, data: { a: '3' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(patch.status, patch.text).toBe(200);
      const stale = await api.request('PUT', `${cms}/rv0`, {
        body: { ...body, metadata: { name: 'rv0', resourceVersion: '1' } },
      });
      expect(stale.status).toBe(409);
    });
  });

  it('JSON Patch move into its own child is a 422 naming RFC 6902 §4.4, not a JavaScript TypeError', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mv' }, data: { a: '1' } };
    expect((await api.request('POST', cms, { body })).status).toBe(201);
    const r = await api.request('PATCH', `${cms}/mv`, {
      body: [{ op: 'move', from: '/data', path: '/data/x' }],
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect((r.json as Raw['json']).message).toBe(
      'move operation does not apply: "from" /data is a proper prefix of "path" /data/x',
    );
  });

  it.each([
    ['watch=FALSE', 200, 'ConfigMapList'],
    ['watch=False', 200, 'ConfigMapList'],
    ['watch=0', 200, 'ConfigMapList'],
  ])('booleans are case-insensitive as upstream reads them: %s', async (q, code, kind) => {
    const r = await api.request('GET', `${cms}?${q}`);
    expect(r.status, r.text).toBe(code);
    expect((r.json as Raw['json']).kind).toBe(kind);
  });
  it.each(['watch=TRUE', 'watch=True', 'watch=true'])('%s on a collection is a watch', async (q) => {
    const r = await api.request('GET', `/api/v1/namespaces?${q}&timeoutSeconds=1`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('"type":"ADDED"');
  });

  it.each(['true', 'false'])(
    'sendInitialEvents=%s on a list (not a watch) is refused, as upstream',
    async (v) => {
      const r = await api.request('GET', `${cms}?sendInitialEvents=${v}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({
        kind: 'Status',
        reason: 'BadRequest',
        message: 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
      });
    },
  );

  it("force on a non-apply patch is upstream's 422 PatchOptions Invalid", async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frc' } };
    expect((await api.request('POST', cms, { body })).status).toBe(201);
    const r = await api.request('PATCH', `${cms}/frc?force=true`, {
      body: { data: { a: 'b' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const group = flavor === 'kubernetes' ? 'meta.k8s.io' : 'meta.orch.io';
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message: `PatchOptions.${group} "" is invalid: force: Forbidden: may not be specified for non-apply patch`,
      details: { group, kind: 'PatchOptions', causes: [{ reason: 'FieldValueForbidden', field: 'force' }] },
    });
    expect((await api.request('GET', `${cms}/frc`)).json).not.toHaveProperty('data');
  });

  describe('create on update (PUT of a missing object)', () => {
    it.each([
      [
        'services (upstream allows it)',
        `/api/v1/namespaces/${ns}/services/s1`,
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { ports: [{ port: 80 }] } },
        201,
      ],
      [
        'configmaps (upstream does not)',
        `${cms}/c1`,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } },
        404,
      ],
      [
        'services with resourceVersion "0"',
        `/api/v1/namespaces/${ns}/services/s2`,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's2', resourceVersion: '0' },
          spec: { ports: [{ port: 80 }] },
        },
        201,
      ],
      [
        'services with resourceVersion "5"',
        `/api/v1/namespaces/${ns}/services/s3`,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's3', resourceVersion: '5' },
          spec: { ports: [{ port: 80 }] },
        },
        404,
      ],
    ])('%s', async (_name, path, body, code) => {
      const r = await api.request('PUT', path, { body });
      expect(r.status, r.text).toBe(code);
    });
  });
});
