import { startTestServer, type TestServer } from '@orchard/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPrototypeClean, fuzzParams, hostileKeys, reportFuzzRuns } from './fuzz-settings.js';

/**
 * Whole HTTP requests against a live server: arbitrary methods, paths, query options, media types
 * and bodies built from hostile keys. Every answer is well-formed (a Status for every error, never a
 * 500), the server keeps answering, Object.prototype stays clean, and a sentinel object that no
 * request may legally touch (they all target other names or are refused) is unchanged.
 */
describe.each(['kubernetes', 'orch'] as const)('fuzz: HTTP requests (%s flavor)', (flavor) => {
  let api: TestServer;
  let sentinel: string;
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    api = await startTestServer({ flavor });
    const r = await api.request('POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'sentinel', labels: { a: 'b' } },
        data: { k: 'v' },
      },
    });
    expect(r.status).toBe(201);
    sentinel = r.text;
  });
  afterAll(async () => {
    reportFuzzRuns(`http-${flavor}`);
    await api.stop();
  });

  const key = fc.oneof(fc.constantFrom(...hostileKeys), fc.string({ maxLength: 6 }));
  const json = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 10 }),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(key, tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  const name = fc.constantFrom('f1', 'f2', 'sentinel-x', '..', '%2e', 'a/b', '', 'UPPER', 'x'.repeat(300));
  const resource = fc.constantFrom(
    'configmaps',
    'secrets',
    'pods',
    'services',
    'events',
    'serviceaccounts',
    'namespaces',
    'bogus',
    'configmaps/f1/status',
  );
  const query = fc
    .array(
      fc.tuple(
        fc.constantFrom(
          'watch',
          'limit',
          'continue',
          'resourceVersion',
          'resourceVersionMatch',
          'labelSelector',
          'fieldSelector',
          'dryRun',
          'fieldValidation',
          'fieldManager',
          'force',
          'timeoutSeconds',
          'propagationPolicy',
          'gracePeriodSeconds',
          'sendInitialEvents',
        ),
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom('1', '0', 'true', 'All', 'Strict', 'a=b', '-1', '9'.repeat(30)),
        ),
      ),
      { maxLength: 3 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString());
  const contentType = fc.constantFrom(
    'application/json',
    'application/yaml',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/json-patch+json',
    'application/apply-patch+yaml',
    'application/vnd.kubernetes.protobuf',
    'text/plain',
    '',
  );
  const body = fc.oneof(
    json.map((v) => JSON.stringify(v)),
    fc
      .record({
        apiVersion: fc.constantFrom('v1', 'x/v1', ''),
        kind: fc.constantFrom('ConfigMap', 'Secret', 'Pod'),
        metadata: fc.dictionary(key, json, { maxKeys: 4 }),
      })
      .chain((o) =>
        fc.dictionary(key, json, { maxKeys: 3 }).map((extra) => JSON.stringify({ ...extra, ...o })),
      ),
    fc.string({ maxLength: 40 }),
  );
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
    namespace: fc.constantFrom('default', 'kube-system', 'nope', ''),
    resource,
    name,
    query,
    contentType,
    body,
  });

  it('every request gets a well-formed answer and leaves stored data and the process intact', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        // deletecollection is a legal way to delete the sentinel: fuzz it as a GET instead. The URL
        // parser resolves the dot segments `..` and `%2e`, so those names address a collection too.
        const collection = input.name === '' || input.name === '..' || input.name === '%2e';
        const r = input.method === 'DELETE' && collection ? { ...input, method: 'GET' } : input;
        const ns = r.namespace === '' ? '' : `/namespaces/${r.namespace}`;
        // Any watch= value may open a watch (an empty one too): every such request ends within a second.
        const params = new URLSearchParams(r.query);
        if (params.has('watch')) params.set('timeoutSeconds', '1');
        const query = params.toString();
        const bounded = `/api/v1${ns}/${r.resource}${r.name ? `/${r.name}` : ''}${query ? `?${query}` : ''}`;
        const headers: Record<string, string> = r.contentType ? { 'content-type': r.contentType } : {};
        const withBody = r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH';
        const res = await api.request(r.method, bounded, withBody ? { body: r.body, headers } : { headers });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400 && r.method !== 'HEAD') {
          expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', code: res.status });
          expect(res.text).not.toMatch(/Maximum call stack|TypeError|RangeError|at \S+\.(js|ts):\d+/);
        }
        assertPrototypeClean();
      }),
      fuzzParams('requests', 400),
    );
    expect((await api.request('GET', `${cms}/sentinel`)).text).toBe(sentinel);
    expect((await api.request('GET', '/livez')).status).toBe(200);
    // Generous: a loaded 2-core machine runs these requests ten times slower than an idle one.
  }, 180_000);
});
