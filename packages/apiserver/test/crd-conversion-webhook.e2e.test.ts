import { type FlavorName, flavorByName } from '@orchard/meta';
import {
  type CrdFixture,
  crdFixture,
  installCrd,
  openWatch,
  startTestServer,
  type TestServer,
} from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTls } from './helpers/auth-server.js';
import { type HttpsStub, startJsonWebhook } from './helpers/https-stub.js';

/**
 * Multi-version CRDs with a conversion webhook (issue 16 item 2; spec doc 1 §9.3 rule 2, §9.4):
 * `ConversionReview` over HTTPS trusting `caBundle`, objects stored at the storage version and served
 * at the one asked for (get, list, watch, writes), and a webhook that fails, answers garbage or times
 * out surfacing as a 500 Status with nothing stored.
 */
type Obj = Record<string, any>;
type Mode = 'ok' | 'fail' | 'garbage' | 'slow' | 'wrong-uid';

/** v1 has `spec.cron`; v2 renamed it `spec.schedule`. */
function convert(o: Obj, to: string): Obj {
  const spec = { ...(o.spec ?? {}) };
  if (to.endsWith('/v2') && 'cron' in spec) {
    spec.schedule = spec.cron;
    delete spec.cron;
  }
  if (to.endsWith('/v1') && 'schedule' in spec) {
    spec.cron = spec.schedule;
    delete spec.schedule;
  }
  return { ...o, apiVersion: to, spec };
}

describe.each(['orch', 'kubernetes'] as FlavorName[])('CRD conversion webhook (%s flavor)', (flavorName) => {
  const flavor = flavorByName(flavorName);
  let api: TestServer;
  let webhook: HttpsStub;
  let mode: Mode = 'ok';
  const reviews: Obj[] = [];
  const group = 'conv.example.com';
  const path = (v: string, name = '') =>
    `/apis/${group}/${v}/namespaces/default/schedules${name ? `/${name}` : ''}`;

  beforeAll(async () => {
    const tls = await sharedTls();
    webhook = await startJsonWebhook(tls, (review: Obj, res) => {
      reviews.push(review);
      if (mode === 'slow') return; // never answers; the server's deadline fails the call
      if (mode === 'garbage') return res.end('<html>not a review</html>');
      const { uid, desiredAPIVersion, objects } = review.request;
      const response =
        mode === 'fail'
          ? { uid, result: { status: 'Failed', message: 'cannot convert this one' } }
          : {
              uid: mode === 'wrong-uid' ? 'someone-else' : uid,
              result: { status: 'Success' },
              convertedObjects: objects.map((o: Obj) => convert(o, desiredAPIVersion)),
            };
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response }));
    });
    api = await startTestServer({
      flavor: flavorName,
      storage: 'memory',
      server: { conversionWebhookTimeoutMs: 1500 },
    });
    const crd = crdFixture({
      group,
      plural: 'schedules',
      kind: 'Schedule',
      flavor,
      versions: ['v2', 'v1'],
      storageVersion: 'v1',
      schema: {
        type: 'object',
        properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    }) as Obj;
    if (flavorName === 'orch') {
      crd.spec.versions = crd.spec.versions.map((v: Obj) => ({
        ...v,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', 'x-orch-preserve-unknown-fields': true } },
          },
        },
      }));
    }
    crd.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { url: `${webhook.url}/convert`, caBundle: btoa(tls.ca.cert) },
      },
    };
    await installCrd(api, crd as CrdFixture);
  });
  afterAll(async () => {
    await api?.stop();
    await webhook?.stop();
  });

  it('stores at the storage version and answers at the version asked for, through ConversionReview', async () => {
    mode = 'ok';
    reviews.length = 0;
    const created = await api.request('POST', path('v2'), {
      body: {
        apiVersion: `${group}/v2`,
        kind: 'Schedule',
        metadata: { name: 'a', labels: { x: 'y' } },
        spec: { schedule: '@daily' },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect((created.json as Obj).apiVersion).toBe(`${group}/v2`);
    expect((created.json as Obj).spec).toEqual({ schedule: '@daily' });
    expect(reviews[0]).toMatchObject({
      apiVersion: `${flavor.group('apiextensions')}/v1`,
      kind: 'ConversionReview',
      request: { desiredAPIVersion: `${group}/v1` },
    });
    const stored = await api.server.objects.get(
      api.server.objects.key({ group, resource: 'schedules', namespace: 'default' }, 'a'),
    );
    expect(stored.object?.spec).toEqual({ cron: '@daily' });
    const v1 = (await api.request('GET', path('v1', 'a'))).json as Obj;
    expect(v1.spec).toEqual({ cron: '@daily' });
    expect(v1.metadata.labels).toEqual({ x: 'y' });
    // A list converts every item in one review; a watch converts each event.
    await api.request('POST', path('v1'), {
      body: {
        apiVersion: `${group}/v1`,
        kind: 'Schedule',
        metadata: { name: 'b' },
        spec: { cron: '* * * * *' },
      },
    });
    reviews.length = 0;
    const list = (await api.request('GET', path('v2'))).json as Obj;
    expect(list.items.map((i: Obj) => [i.apiVersion, i.spec.schedule])).toEqual([
      [`${group}/v2`, '@daily'],
      [`${group}/v2`, '* * * * *'],
    ]);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.request.objects).toHaveLength(2);
    const watch = await openWatch(api, path('v2'), { resourceVersion: list.metadata.resourceVersion });
    try {
      const patched = await api.request('PATCH', path('v1', 'b'), {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { cron: '0 1 * * *' } }),
      });
      expect(patched.status, patched.text).toBe(200);
      const ev = await watch.untilEvent((e) => e.type === 'MODIFIED', 30_000);
      expect(ev.object.apiVersion).toBe(`${group}/v2`);
      expect((ev.object as Obj).spec).toEqual({ schedule: '0 1 * * *' });
    } finally {
      watch.close();
    }
  });

  it.each([
    ['fail', `conversion webhook for ${group}/v2, Kind=Schedule returned failure: cannot convert this one`],
    [
      'garbage',
      `conversion webhook for ${group}/v2, Kind=Schedule failed: the response is not a JSON ConversionReview`,
    ],
    ['wrong-uid', 'failed: expected response uid'],
    ['slow', `conversion webhook for ${group}/v2, Kind=Schedule failed: Post "https://127.0.0.1:`],
  ] as [Mode, string][])(
    'a webhook that answers %s fails the write with a 500 Status and stores nothing',
    async (m, message) => {
      mode = m;
      const r = await api.request('POST', path('v2'), {
        body: {
          apiVersion: `${group}/v2`,
          kind: 'Schedule',
          metadata: { name: `bad-${m}` },
          spec: { schedule: '@hourly' },
        },
      });
      expect(r.status, r.text).toBe(500);
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
      expect((r.json as Obj).message).toContain(message);
      // A webhook that never answers is cut at the deadline, and the message says so.
      if (m === 'slow') expect((r.json as Obj).message).toMatch(/timeout|timed out|deadline/i);
      mode = 'ok';
      expect((await api.request('GET', path('v1', `bad-${m}`))).status).toBe(404);
      // What was stored before is still readable at the storage version without the webhook.
      mode = m;
      expect((await api.request('GET', path('v1', 'a'))).status).toBe(200);
      expect((await api.request('GET', path('v2', 'a'))).status).toBe(500);
      mode = 'ok';
    },
  );

  it('refuses a Webhook strategy without a webhook, or with a plain-HTTP URL', async () => {
    const bad = crdFixture({
      group: 'bad.example.com',
      plural: 'things',
      kind: 'Thing',
      flavor,
      versions: ['v1'],
    }) as Obj;
    bad.spec.conversion = { strategy: 'Webhook' };
    const r = await api.request(
      'POST',
      `/apis/${flavor.group('apiextensions')}/v1/customresourcedefinitions`,
      { body: bad },
    );
    expect(r.status, r.text).toBe(422);
    expect((r.json as Obj).details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.conversion.webhook', reason: 'FieldValueRequired' }),
    );
    bad.spec.conversion = {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v9'], clientConfig: { url: 'http://127.0.0.1:1/convert' } },
    };
    const r2 = await api.request(
      'POST',
      `/apis/${flavor.group('apiextensions')}/v1/customresourcedefinitions`,
      { body: bad },
    );
    expect(r2.status, r2.text).toBe(422);
    const fields = ((r2.json as Obj).details.causes as Obj[]).map((c) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'spec.conversion.webhook.conversionReviewVersions',
        'spec.conversion.webhook.clientConfig.url',
      ]),
    );
  });
});
