import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Field validation (spec doc 1 §4.10) on POST, PUT and PATCH: unknown and duplicate fields in
 * JSON and YAML bodies under Ignore / Warn (default) / Strict, the "first fatal error" rule, and
 * dry-run.
 */

function warnings(h: string | string[] | undefined): string[] {
  if (h === undefined) return [];
  const all = Array.isArray(h) ? h : [h];
  // Node joins repeated headers with ", "; each value is `299 - "<quoted text>"`.
  return all.flatMap((v) =>
    [...v.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string),
  );
}

describe.each(['kubernetes', 'orch'] as const)('field validation (%s flavor)', (flavor) => {
  let api: TestServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  const json = (body: string) => ({ body, headers: { 'content-type': 'application/json' } });
  const yaml = (body: string) => ({ body, headers: { 'content-type': 'application/yaml' } });

  beforeAll(async () => {
    api = await startTestServer({ flavor });
  });
  afterAll(async () => {
    await api.stop();
  });

  type Row = [
    string,
    string,
    string,
    { body: string; headers: Record<string, string> },
    number,
    string[],
    RegExp | undefined,
  ];
  const body = (name: string, extra = '') => `{"metadata":{"name":"${name}"},"data":{"a":"1"}${extra}}`;
  const rows: Row[] = [
    [
      'POST unknown field, default Warn',
      'POST',
      cms,
      json(body('w1', ',"bogus":1,"spec":{"x":1}')),
      201,
      ['unknown field "bogus"', 'unknown field "spec"'],
      undefined,
    ],
    [
      'POST unknown field, Ignore',
      'POST',
      `${cms}?fieldValidation=Ignore`,
      json(body('i1', ',"bogus":1')),
      201,
      [],
      undefined,
    ],
    [
      'POST unknown field, Strict',
      'POST',
      `${cms}?fieldValidation=Strict`,
      json(body('s1', ',"bogus":1,"other":2')),
      400,
      [],
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus", unknown field "other"$/,
    ],
    [
      'POST duplicate JSON field, Warn',
      'POST',
      cms,
      json('{"metadata":{"name":"d1","name":"d1"},"data":{"a":"1","a":"2"}}'),
      201,
      ['duplicate field "metadata.name"', 'duplicate field "data.a"'],
      undefined,
    ],
    [
      'POST duplicate JSON field, Strict',
      'POST',
      `${cms}?fieldValidation=Strict`,
      json('{"metadata":{"name":"d2"},"data":{"a":"1","a":"2"},"x":1}'),
      400,
      [],
      /unknown field "x", duplicate field "data.a"/,
    ],
    [
      'POST duplicate YAML key, Warn',
      'POST',
      cms,
      yaml('metadata:\n  name: y1\ndata:\n  a: "1"\n  a: "2"\n'),
      201,
      ['line 5: key "a" already set in map'],
      undefined,
    ],
    [
      'POST duplicate YAML key, Strict',
      'POST',
      `${cms}?fieldValidation=Strict`,
      yaml('metadata:\n  name: y2\n  name: y2\n'),
      400,
      [],
      /line 3: key "name" already set in map/,
    ],
    [
      'POST unknown nested field in a Pod',
      'POST',
      '/api/v1/namespaces/default/pods',
      json('{"metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"i","bogus":true}]}}'),
      201,
      ['unknown field "spec.containers[0].bogus"'],
      undefined,
    ],
    [
      'wrong type and unknown field under Strict: only the type error',
      'POST',
      `${cms}?fieldValidation=Strict`,
      json('{"metadata":{"name":"t1"},"data":{"a":1,"b":2},"bogus":1}'),
      400,
      [],
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap\.data\.a of type string$/,
    ],
    [
      'PATCH merge with an unknown field, Warn',
      'PATCH',
      `${cms}/w1`,
      { body: '{"zzz":1}', headers: { 'content-type': 'application/merge-patch+json' } },
      200,
      ['unknown field "zzz"'],
      undefined,
    ],
    [
      'PATCH merge with an unknown field, Strict',
      'PATCH',
      `${cms}/w1?fieldValidation=Strict`,
      { body: '{"zzz":1}', headers: { 'content-type': 'application/merge-patch+json' } },
      400,
      [],
      /^strict decoding error: unknown field "zzz"$/,
    ],
    [
      'PATCH duplicate field in a merge patch, Strict',
      'PATCH',
      `${cms}/w1?fieldValidation=Strict`,
      { body: '{"data":{"q":"1","q":"2"}}', headers: { 'content-type': 'application/merge-patch+json' } },
      400,
      [],
      /duplicate field "data.q"/,
    ],
    [
      'PUT unknown field, Strict',
      'PUT',
      `${cms}/w1?fieldValidation=Strict`,
      json(body('w1', ',"nope":{}')),
      400,
      [],
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "nope"$/,
    ],
    [
      'PUT unknown field, Warn',
      'PUT',
      `${cms}/w1`,
      json(body('w1', ',"nope":{}')),
      200,
      ['unknown field "nope"'],
      undefined,
    ],
    [
      'nulls in non-nullable fields are dropped, as Go decoding does',
      'POST',
      cms,
      json('{"metadata":{"name":"n1","creationTimestamp":null,"labels":null},"data":null}'),
      201,
      [],
      undefined,
    ],
    [
      'a JSON body nested 5000 levels deep (would overflow native serialization)',
      'POST',
      cms,
      json(`{"metadata":{"name":"deep"},"x":${'['.repeat(5000)}${']'.repeat(5000)}}`),
      400,
      [],
      /more than 500 levels deep/,
    ],
    [
      'a YAML body nested 5000 levels deep',
      'POST',
      cms,
      yaml(`metadata:\n  name: deep\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`),
      400,
      [],
      undefined,
    ],
    [
      'a merge patch nested 5000 levels deep',
      'PATCH',
      `${cms}/w1`,
      {
        body: `{"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
        headers: { 'content-type': 'application/merge-patch+json' },
      },
      400,
      [],
      /more than 500 levels deep/,
    ],
    [
      'an invalid fieldValidation value',
      'POST',
      `${cms}?fieldValidation=Loud`,
      json(body('v1')),
      400,
      [],
      /fieldValidation/,
    ],
  ];

  it.each(rows)('%s', async (_n, method, path, options, code, expectedWarnings, message) => {
    const r = await api.request(method, path, options);
    expect(r.status, r.text).toBe(code);
    expect(warnings(r.headers.warning)).toEqual(expectedWarnings);
    if (message) expect((r.json as { message: string }).message).toMatch(message);
    if (code >= 400) expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code });
  });

  it('drops unknown fields from what is stored, under every level', async () => {
    const w = (await api.request('GET', `${cms}/w1`)).json as Record<string, unknown>;
    expect(w).not.toHaveProperty('bogus');
    expect(w).not.toHaveProperty('nope');
    expect(w).not.toHaveProperty('zzz');
    expect((await api.request('GET', `${cms}/i1`)).json).not.toHaveProperty('bogus');
    const d = (await api.request('GET', `${cms}/d1`)).json as { data: Record<string, string> };
    expect(d.data.a).toBe('2');
    for (const name of ['s1', 'd2', 'y2', 't1'])
      expect((await api.request('GET', `${cms}/${name}`)).status).toBe(404);
  });

  describe('dry-run', () => {
    it('dryRun=All on create returns the object with 201, stores nothing and sends no watch event', async () => {
      const list = (await api.request('GET', cms)).json as { metadata: { resourceVersion: string } };
      const r = await api.request('POST', `${cms}?dryRun=All`, {
        body: { metadata: { name: 'dry' }, data: { k: 'v' } },
      });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        kind: 'ConfigMap',
        metadata: { name: 'dry', namespace: 'default' },
        data: { k: 'v' },
      });
      expect((await api.request('GET', `${cms}/dry`)).status).toBe(404);
      const watch = await api.request(
        'GET',
        `${cms}?watch=1&timeoutSeconds=1&resourceVersion=${list.metadata.resourceVersion}`,
      );
      expect(watch.text).not.toContain('"dry"');
    });
    it('dryRun=All on update and delete changes nothing', async () => {
      const before = await api.request('GET', `${cms}/w1`);
      const up = await api.request('PUT', `${cms}/w1?dryRun=All`, {
        body: { metadata: { name: 'w1' }, data: { changed: 'yes' } },
      });
      expect(up.status).toBe(200);
      expect((up.json as { data: unknown }).data).toEqual({ changed: 'yes' });
      expect((await api.request('DELETE', `${cms}/w1?dryRun=All`)).status).toBe(200);
      expect((await api.request('GET', `${cms}/w1`)).text).toBe(before.text);
    });
    it('dryRun with another value is a 400', async () => {
      const r = await api.request('POST', `${cms}?dryRun=Yes`, { body: { metadata: { name: 'dry2' } } });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect((await api.request('GET', `${cms}/dry2`)).status).toBe(404);
    });
    it('dry-run still validates', async () => {
      const r = await api.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: 'Bad!' } } });
      expect(r.status).toBe(422);
    });
  });
});

// Needs stock kubectl at /usr/bin/kubectl (.ci/run installs Debian's kubernetes-client); skipped only where it is absent.
describe.skipIf(!kubectlAvailable())('kubectl field validation and dry-run (kubernetes flavor)', () => {
  let api: TestServer;
  const k = (args: string[], input?: string) =>
    kubectl(
      args,
      input === undefined ? { kubeconfig: api.kubeconfigPath } : { kubeconfig: api.kubeconfigPath, input },
    );
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    await api.stop();
  });

  const cm = (extra = '') =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fv\n  namespace: default\ndata:\n  a: "1"\n${extra}`;

  it('kubectl create --dry-run=server stores nothing', async () => {
    expect(await k(['create', 'configmap', 'dr', '--from-literal=a=b', '--dry-run=server'])).toMatchObject({
      code: 0,
      stdout: 'configmap/dr created (server dry run)\n',
    });
    expect((await k(['get', 'cm', 'dr'])).code).toBe(1);
  });

  it('kubectl create -f with an unknown field: rejected by default (strict), warned with --validate=warn', async () => {
    const strict = await k(['create', '-f', '-'], cm('bogus: 1\n'));
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('strict decoding error: unknown field "bogus"');
    const warn = await k(['create', '--validate=warn', '-f', '-'], cm('bogus: 1\n'));
    expect(warn.code).toBe(0);
    expect(warn.stderr).toContain('Warning: unknown field "bogus"');
    expect(warn.stdout).toBe('configmap/fv created\n');
  });

  it('kubectl apply --validate=strict rejects an unknown field, naming it', async () => {
    const r = await k(['apply', '--validate=strict', '-f', '-'], cm('other: {x: 1}\n'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown field "other"');
  });

  it('kubectl apply --dry-run=server changes nothing', async () => {
    const before = (await k(['get', 'cm', 'fv', '-o', 'json'])).stdout;
    const r = await k(['apply', '--dry-run=server', '-f', '-'], cm().replace('a: "1"', 'a: "2"'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(server dry run)');
    expect((await k(['get', 'cm', 'fv', '-o', 'json'])).stdout).toBe(before);
  });
});
