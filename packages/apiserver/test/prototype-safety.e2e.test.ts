import { crdFixture, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * Field names that reach `Object.prototype` through `o[k]` (`__proto__`, `constructor`,
 * `prototype`) are ordinary unknown fields at every entry point that takes client data: creates,
 * updates, the three patch types, apply, YAML bodies and custom resources. Each case checks that
 * `Object.prototype` is untouched and that the server still creates objects afterwards (the first
 * defect of issue 12: a dry-run strategic merge patch made every later create a 403).
 */

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
const pollution = () => {
  const probe: Record<string, unknown> = {};
  return {
    names: Object.getOwnPropertyNames(Object.prototype).sort(),
    inherited: ['x', 'deletionTimestamp', 'polluted'].filter((k) => k in probe),
  };
};

const hostilePatches: [name: string, body: string][] = [
  ['metadata.__proto__', '{"metadata":{"__proto__":{"deletionTimestamp":"2020-01-01T00:00:00Z","x":"1"}}}'],
  ['metadata.labels.__proto__', '{"metadata":{"labels":{"__proto__":{"polluted":"1"}}}}'],
  ['data.__proto__', '{"data":{"__proto__":{"polluted":"1"}}}'],
  ['top-level __proto__', '{"__proto__":{"polluted":"1"}}'],
  ['metadata.constructor.prototype', '{"metadata":{"constructor":{"prototype":{"polluted":"1"}}}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":"1"}}}'],
  ['$setElementOrder/__proto__', '{"metadata":{"$setElementOrder/__proto__":[{"polluted":"1"}]}}'],
  ['$deleteFromPrimitiveList/__proto__', '{"metadata":{"$deleteFromPrimitiveList/__proto__":["x"]}}'],
];

describe.each(['kubernetes', 'orch'] as const)(
  'prototype-named fields are plain data (%s flavor)',
  (flavor) => {
    let api: TestServer;
    const cms = '/api/v1/namespaces/default/configmaps';
    let created = 0;

    const stillCreates = async () => {
      const r = await api.request('POST', cms, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `after-${created++}` } },
      });
      expect(r.status).toBe(201);
    };

    beforeAll(async () => {
      api = await startTestServer({ flavor });
      const r = await api.request('POST', cms, {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'a', labels: { k: 'v' } },
          data: { k: 'v' },
        },
      });
      expect(r.status).toBe(201);
    });
    afterEach(async () => {
      expect(pollution()).toEqual({ names: prototypeNames, inherited: [] });
      await stillCreates();
    });
    afterAll(async () => {
      await api.stop();
    });

    describe.each(['application/strategic-merge-patch+json', 'application/merge-patch+json'])(
      '%s',
      (contentType) => {
        it.each(hostilePatches)('%s (dry run and real)', async (_name, body) => {
          for (const q of ['?dryRun=All', '']) {
            const r = await api.request('PATCH', `${cms}/a${q}`, {
              body,
              headers: { 'content-type': contentType },
            });
            expect(r.json).toHaveProperty('kind');
            expect([200, 400, 422]).toContain(r.status);
          }
          const got = (await api.request('GET', `${cms}/a`)).json as { metadata: Record<string, unknown> };
          expect(Object.hasOwn(got.metadata, '__proto__')).toBe(false);
          expect(Object.hasOwn(got.metadata, 'constructor')).toBe(false);
          expect(got.metadata.deletionTimestamp).toBeUndefined();
        });
      },
    );

    it.each(hostilePatches)('server-side apply with %s', async (_name, body) => {
      const fields = JSON.parse(body) as Record<string, unknown>;
      const meta = { ...((fields.metadata as object | undefined) ?? {}), name: 'a' };
      const intent = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', ...fields, metadata: meta });
      for (const ct of ['application/apply-patch+yaml', 'application/apply-patch+json']) {
        if (ct.endsWith('json') && flavor === 'orch') continue; // the orch flavor serves apply as YAML only
        const r = await api.request('PATCH', `${cms}/a?fieldManager=m&force=true`, {
          body: intent,
          headers: { 'content-type': ct },
        });
        expect(r.json).toHaveProperty('kind');
      }
      // Undeclared metadata keys are neither applied nor recorded as owned in managedFields.
      const live = await api.request('GET', `${cms}/a`);
      expect(live.text).not.toMatch(
        /__proto__|constructor|polluted|\$deleteFromPrimitiveList|\$setElementOrder/,
      );
    });

    it.each([
      ['/metadata/__proto__', { polluted: '1' }],
      ['/metadata/__proto__/polluted', '1'],
      ['/metadata/constructor/prototype/polluted', '1'],
      ['/__proto__', { polluted: '1' }],
    ])('JSON patch add %s', async (path, value) => {
      const r = await api.request('PATCH', `${cms}/a?dryRun=All`, {
        body: JSON.stringify([{ op: 'add', path, value }]),
        headers: { 'content-type': 'application/json-patch+json' },
      });
      expect([200, 422]).toContain(r.status);
      expect(r.text).not.toMatch(/banPrototypeModifications|security reasons/);
      if (r.status === 200) {
        const meta = (r.json as { metadata: object }).metadata;
        expect(Object.hasOwn(meta, '__proto__')).toBe(false);
      }
    });

    it('drops metadata.__proto__ on create (Ignore) and reports it as unknown under Strict', async () => {
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p1","__proto__":{"x":"1"},"constructor":{"prototype":{"x":"1"}}},"data":{"a":"b"}}`;
      const r = await api.request('POST', `${cms}?fieldValidation=Ignore`, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(201);
      expect(r.text).not.toContain('__proto__');
      expect(r.text).not.toContain('constructor');
      const strict = await api.request('POST', `${cms}?fieldValidation=Strict`, {
        body: body.replace('"p1"', '"p2"'),
        headers: { 'content-type': 'application/json' },
      });
      expect(strict.status).toBe(400);
      expect(strict.text).toContain('unknown field \\"metadata.__proto__\\"');
    });

    it('an update (PUT) with __proto__ and constructor fields stores neither', async () => {
      const live = await api.request('GET', `${cms}/a`);
      expect(live.status).toBe(200);
      const body = JSON.stringify(live.json).replace(
        '"metadata":{',
        '"__proto__":{"polluted":"1"},"metadata":{"__proto__":{"deletionTimestamp":"2020-01-01T00:00:00Z"},"constructor":{"prototype":{"x":"1"}},',
      );
      const r = await api.request('PUT', `${cms}/a`, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(200);
      expect(r.text).not.toMatch(/__proto__|constructor|polluted|deletionTimestamp/);
      const after = await api.request('GET', `${cms}/a`);
      expect(after.text).not.toMatch(/__proto__|constructor|polluted|deletionTimestamp/);
    });

    it('a YAML body with __proto__ keys and aliases creates nothing on the prototype', async () => {
      const yaml = [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: y1',
        '  __proto__: &p {x: "1", deletionTimestamp: "2020-01-01T00:00:00Z"}',
        '  constructor: {prototype: *p}',
        'data: {a: b}',
      ].join('\n');
      const r = await api.request('POST', cms, {
        body: yaml,
        headers: { 'content-type': 'application/yaml' },
      });
      expect(r.status).toBe(201);
      expect(r.text).not.toContain('__proto__');
    });

    it('custom resources with preserved unknown fields keep __proto__ as an ordinary own field', async () => {
      const ext = flavor === 'kubernetes' ? 'x-kubernetes-' : 'x-orch-';
      const apiGroup = flavor === 'kubernetes' ? 'apiextensions.k8s.io' : 'apiextensions.orch.io';
      const crd = crdFixture({
        flavor,
        group: 'proto.example.com',
        plural: 'gadgets',
        kind: 'Gadget',
        schema: {
          type: 'object',
          properties: {
            spec: { type: 'object', [`${ext}preserve-unknown-fields`]: true },
            typed: { type: 'object', properties: { a: { type: 'string' } } },
          },
        },
      });

      expect(
        (await api.request('POST', `/apis/${apiGroup}/v1/customresourcedefinitions`, { body: crd })).status,
      ).toBe(201);
      const gadgets = '/apis/proto.example.com/v1/namespaces/default/gadgets';
      await waitFor('gadgets served', async () => (await api.request('GET', gadgets)).status === 200, 5000);
      const body =
        '{"apiVersion":"proto.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"__proto__":{"polluted":"1"},"constructor":{"prototype":{"polluted":"1"}}},"typed":{"__proto__":{"a":"x"},"a":"y"}}';
      const r = await api.request('POST', gadgets, { body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(201);
      const got = JSON.parse((await api.request('GET', `${gadgets}/g`)).text) as {
        spec: Record<string, unknown>;
        typed: Record<string, unknown>;
      };
      expect(Object.hasOwn(got.spec, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(got.spec, '__proto__')?.value).toEqual({ polluted: '1' });
      expect(got.spec.constructor).toEqual({ prototype: { polluted: '1' } });
      expect(got.typed).toEqual({ a: 'y' });
      for (const ct of ['application/merge-patch+json', 'application/apply-patch+yaml']) {
        const force = ct.startsWith('application/apply') ? '&force=true' : '';
        const p = await api.request('PATCH', `${gadgets}/g?fieldManager=m${force}`, {
          body:
            ct === 'application/merge-patch+json'
              ? '{"spec":{"__proto__":{"more":"1"}}}'
              : '{"apiVersion":"proto.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"__proto__":{"more":"2"}}}',
          headers: { 'content-type': ct },
        });
        expect(p.status).toBe(200);
        expect(Object.hasOwn((JSON.parse(p.text) as { spec: object }).spec, '__proto__')).toBe(true);
      }
    });
  },
);
