import { encodeProtobuf } from '@orchard/codecs/protobuf';
import { kubernetesFlavor } from '@orchard/meta';
import { crdFixture, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Regression tests for the parser bombs and value defects of issue 12, against the real server:
 * every hostile body gets a Status naming the problem (never an engine message such as "Maximum
 * call stack size exceeded"), the server keeps answering `/livez` while it refuses one, and
 * nothing stored changes.
 */
describe('decoder bounds and value checks (kubernetes flavor)', () => {
  let api: TestServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  const secrets = '/api/v1/namespaces/default/secrets';
  const yaml = { 'content-type': 'application/yaml' };
  const cmYaml = (name: string, rest: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n${rest}`;

  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    // Nothing any refused request tried to create exists.
    const list = (await api.request('GET', cms)).json as { items: { metadata: { name: string } }[] };
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(['exactly-1mib', 'json-keys']);
    await api.stop();
  });

  /** Sends `body`, and while the server handles it asks `/livez`, which must be answered too. */
  const withLivez = async (method: string, path: string, body: string, headers: Record<string, string>) => {
    const [res, livez] = await Promise.all([
      api.request(method, path, { body, headers }),
      api.request('GET', '/livez'),
    ]);
    expect(livez.status).toBe(200);
    return res;
  };

  const noEngineMessage = (text: string) => {
    expect(text).not.toMatch(/Maximum call stack|RangeError|TypeError|heap|at .*\.(js|ts):\d+/);
  };

  it('a 2.8 MB YAML body of 1.4M nested flow sequences is a 400, not an out-of-memory crash', async () => {
    const n = 1_400_000;
    const r = await withLivez('POST', cms, cmYaml('bomb', `x: ${'['.repeat(n)}${']'.repeat(n)}\n`), yaml);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(r.text).toContain('nests collections more than 500 levels deep');
    noEngineMessage(r.text);
  });

  it.each([
    ['flow sequences', (n: number) => `x: ${'['.repeat(n)}${']'.repeat(n)}\n`],
    ['flow mappings', (n: number) => `x: ${'{a: '.repeat(n)}1${'}'.repeat(n)}\n`],
    ['compact block sequences', (n: number) => `x:\n${'- '.repeat(n)}1\n`],
  ])('100k levels of %s in YAML and in an apply body: a clean 400', async (_name, make) => {
    const body = cmYaml('deep', make(100_000));
    const create = await api.request('POST', cms, { body, headers: yaml });
    expect(create.status).toBe(400);
    noEngineMessage(create.text);
    const apply = await api.request('PATCH', `${cms}/deep?fieldManager=m&dryRun=All`, {
      body,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(apply.status).toBe(400);
    noEngineMessage(apply.text);
  });

  it('YAML with 250k keys (3 MB, an apply dry run) is refused by its node count, quickly enough that /livez answers', async () => {
    const keys = Array.from({ length: 250_000 }, (_, i) => `  k${i}: v`).join('\n');
    const r = await withLivez(
      'PATCH',
      `${cms}/many?fieldManager=m&dryRun=All`,
      cmYaml('many', `data:\n${keys}\n`),
      {
        'content-type': 'application/apply-patch+yaml',
      },
    );
    expect(r.status).toBe(400);
    expect(r.text).toContain('holds more than 50000 nodes');
  });

  it('the same many keys sent as JSON to apply (what kubectl sends) are parsed natively and accepted', async () => {
    const data = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`k${i}`, 'v']));
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'json-keys' },
      data,
    });
    const r = await api.request('PATCH', `${cms}/json-keys?fieldManager=m`, {
      body,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(r.status).toBe(201);
    expect(Object.keys((r.json as { data: object }).data)).toHaveLength(30_000);
  });

  it('duplicate keys in YAML are found in linear time (strict: 400 naming them)', async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `  k${i % 10_000}: v`).join('\n');
    const r = await api.request('POST', `${cms}?fieldValidation=Strict&dryRun=All`, {
      body: cmYaml('dups', `data:\n${keys}\n`),
      headers: yaml,
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('line 10005: key \\"k0\\" already set in map');
  });

  it('a Protobuf CRD whose schema nests 600 levels is a 400', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 600; i++) schema = { type: 'object', properties: { a: schema } };
    const crd = crdFixture({ group: 'example.com', plural: 'deeps', kind: 'Deep', schema });

    const r = await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: encodeProtobuf(crd, kubernetesFlavor),
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('nest more than 500 levels deep');
  });

  it('a Secret with a 120 KiB stringData value is stored (it was a 500 from argument spreading)', async () => {
    const value = 'é'.repeat(60 * 1024);
    const r = await api.request('POST', secrets, {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'big-string' }, stringData: { a: value } },
    });
    expect(r.status).toBe(201);
    const data = (r.json as { data: { a: string } }).data.a;
    expect(Buffer.from(data, 'base64').toString('utf8')).toBe(value);
  });

  it('ConfigMaps and Secrets hold at most 1 MiB of data, as upstream', async () => {
    const mib = 1024 * 1024;
    const ok = await api.request('POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'exactly-1mib' },
        data: { a: 'x'.repeat(mib) },
      },
    });
    expect(ok.status).toBe(201);
    const over = await api.request('POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'over' },
        data: { a: 'x'.repeat(mib - 10) },
        binaryData: { b: Buffer.alloc(11).toString('base64') },
      },
    });
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({
      reason: 'Invalid',
      message: 'ConfigMap "over" is invalid: Too long: may not be more than 1048576 bytes',
    });
    const secret = await api.request('POST', secrets, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'over' },
        data: { a: Buffer.alloc(mib + 1).toString('base64') },
      },
    });
    expect(secret.status).toBe(422);
    expect(secret.json).toMatchObject({
      message: 'Secret "over" is invalid: data: Too long: may not be more than 1048576 bytes',
    });
    const update = await api.request('PUT', `${cms}/exactly-1mib`, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'exactly-1mib' },
        data: { a: 'x'.repeat(mib + 1) },
      },
    });
    expect(update.status).toBe(422);
  });

  it.each([
    [
      'creationTimestamp: "yesterday"',
      { metadata: { name: 'when', creationTimestamp: 'yesterday' } },
      'cannot be handled as a ConfigMap: parsing time \\"yesterday\\"',
    ],
    [
      'deletionGracePeriodSeconds: 1e300',
      { metadata: { name: 'grace', deletionGracePeriodSeconds: 1e300 } },
      'cannot unmarshal number 1e+300 into Go struct field ConfigMap.metadata.deletionGracePeriodSeconds of type int64',
    ],
    ['a fractional int64', { metadata: { name: 'grace', deletionGracePeriodSeconds: 1.5 } }, 'of type int64'],
    [
      'managedFields time that is not RFC 3339',
      {
        metadata: {
          name: 'mf',
          managedFields: [{ manager: 'm', operation: 'Update', time: '2020-02-30T00:00:00Z' }],
        },
      },
      'parsing time \\"2020-02-30T00:00:00Z\\"',
    ],
  ])('%s is a 400 as upstream’s decoder gives it', async (_name, body, message) => {
    const r = await api.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', ...body } });
    expect(r.status).toBe(400);
    expect(r.text).toContain(message);
  });

  it.each(['limit', 'timeoutSeconds', 'gracePeriodSeconds'])('%s beyond int64 is a 400', async (param) => {
    const method = param === 'gracePeriodSeconds' ? 'DELETE' : 'GET';
    const r = await api.request(
      method,
      `${cms}${method === 'DELETE' ? '/none' : ''}?${param}=99999999999999999999999`,
    );
    expect(r.status).toBe(400);
    expect(r.text).toContain('strconv.ParseInt: parsing \\"99999999999999999999999\\": value out of range');
  });
});
