import { crdFixture, startTestServer, type TestServer, waitFor } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * CRD validation rules (CEL) end to end: a CRD whose rule does not compile or is too costly is
 * rejected with a 422 naming the rule; the rules of a served CRD run on create, update, patch and
 * server-side apply, with every failure in one 422; transition rules run only on update.
 */

/** Waits for a condition the server reaches asynchronously (bounded: 1000 ms). */
const until = (check: () => Promise<boolean>, what: string) => waitFor(what, check, 1000);

type Causes = { reason: string; field: string; message: string }[];
const causesOf = (json: unknown) =>
  ((json as { details?: { causes?: Causes } }).details?.causes ?? []) as Causes;

function crd(
  ext: string,
  apiGroup: string,
  rules: Record<string, unknown>[],
  specProps: Record<string, unknown> = {},
) {
  return crdFixture({
    flavor: apiGroup === 'apiextensions.k8s.io' ? 'kubernetes' : 'orch',
    group: 'example.com',
    plural: 'gadgets',
    kind: 'Gadget',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          [`${ext}validations`]: rules,
          properties: {
            minReplicas: { type: 'integer' },
            maxReplicas: { type: 'integer' },
            mode: {
              type: 'string',
              maxLength: 16,
              [`${ext}validations`]: [{ rule: 'self == oldSelf', message: 'mode is immutable' }],
            },
            names: { type: 'array', items: { type: 'string' } },
            ...specProps,
          },
        },
      },
    },
  });
}

describe.each(['kubernetes', 'orch'] as const)('CRD validation rules (%s flavor)', (flavor) => {
  let api: TestServer;
  const ext = flavor === 'kubernetes' ? 'x-kubernetes-' : 'x-orch-';
  const apiGroup = flavor === 'kubernetes' ? 'apiextensions.k8s.io' : 'apiextensions.orch.io';
  const crds = `/apis/${apiGroup}/v1/customresourcedefinitions`;
  const gadgets = '/apis/example.com/v1/namespaces/default/gadgets';
  const gadget = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    metadata: { name },
    spec,
  });
  const rulesPath = `spec.versions[0].schema.openAPIV3Schema.properties[spec].${ext}validations`;

  beforeAll(async () => {
    api = await startTestServer({ flavor });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('rejects a CRD whose rule does not compile, naming the rule', async () => {
    const r = await api.request('POST', crds, {
      body: crd(ext, apiGroup, [{ rule: 'self.minReplicas <=' }]),
    });
    expect(r.status).toBe(422);
    expect(causesOf(r.json)).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: `${rulesPath}[0].rule` }),
    ]);
    expect(causesOf(r.json)[0]?.message).toMatch(/compilation failed/);
  });

  it('rejects a CRD whose rule refers to an undeclared field or does not return bool', async () => {
    const r = await api.request('POST', crds, {
      body: crd(ext, apiGroup, [{ rule: 'self.nosuch > 1' }, { rule: 'self.minReplicas + 1' }]),
    });
    expect(r.status).toBe(422);
    expect(causesOf(r.json).map((c) => c.field)).toEqual([`${rulesPath}[0].rule`, `${rulesPath}[1].rule`]);
  });

  it('rejects a CRD whose rule is estimated too costly', async () => {
    const r = await api.request('POST', crds, {
      body: crd(ext, apiGroup, [{ rule: 'self.names.all(a, self.names.all(b, a != b || a == b))' }]),
    });
    expect(r.status).toBe(422);
    expect(causesOf(r.json)[0]).toMatchObject({
      reason: 'FieldValueForbidden',
      field: `${rulesPath}[0].rule`,
    });
    expect(causesOf(r.json)[0]?.message).toMatch(/estimated rule cost exceeds budget/);
  });

  it('accepts a prefix test over every element of an unbounded list, as upstream (charged by the prefix)', async () => {
    const body = crd(ext, apiGroup, [{ rule: "self.names.all(t, t.startsWith('t-'))" }]);
    body.metadata.name = 'prefixes.example.com';
    Object.assign(body.spec.names, { plural: 'prefixes', singular: 'prefix', kind: 'Prefix' });
    const r = await api.request('POST', crds, { body });
    expect(r.status).toBe(201);
    await api.request('DELETE', `${crds}/prefixes.example.com`);
  });

  describe('with a served CRD', () => {
    beforeAll(async () => {
      const r = await api.request('POST', crds, {
        body: crd(ext, apiGroup, [
          {
            rule: 'self.minReplicas <= self.maxReplicas',
            message: 'minReplicas must not exceed maxReplicas',
          },
          {
            rule: 'self.maxReplicas <= 100',
            messageExpression: '"maxReplicas " + string(self.maxReplicas) + " is over 100"',
            reason: 'FieldValueForbidden',
          },
        ]),
      });
      expect(r.status).toBe(201);
      await until(async () => (await api.request('GET', gadgets)).status === 200, 'gadgets served');
    });
    afterAll(async () => {
      await api.request('DELETE', `${crds}/gadgets.example.com`);
    });

    it('reports every failed rule of a create in one 422', async () => {
      const r = await api.request('POST', gadgets, {
        body: gadget('g0', { minReplicas: 200, maxReplicas: 150, mode: 'a' }),
      });
      expect(r.status).toBe(422);
      expect(causesOf(r.json)).toEqual([
        {
          reason: 'FieldValueInvalid',
          field: 'spec',
          message: 'Invalid value: "object": minReplicas must not exceed maxReplicas',
        },
        { reason: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: maxReplicas 150 is over 100' },
      ]);
    });

    it('accepts a valid create, then checks update, patch and apply (transition rules only on update)', async () => {
      const created = await api.request('POST', gadgets, {
        body: gadget('g1', { minReplicas: 1, maxReplicas: 3, mode: 'a' }),
      });
      expect(created.status).toBe(201);

      const current = (await api.request('GET', `${gadgets}/g1`)).json as Record<string, any>;
      const upd = await api.request('PUT', `${gadgets}/g1`, {
        body: { ...current, spec: { ...current.spec, mode: 'b' } },
      });
      expect(upd.status).toBe(422);
      expect(causesOf(upd.json)).toEqual([
        {
          reason: 'FieldValueInvalid',
          field: 'spec.mode',
          message: 'Invalid value: "string": mode is immutable',
        },
      ]);

      const merge = await api.request('PATCH', `${gadgets}/g1`, {
        body: '{"spec":{"minReplicas":5,"mode":"c"}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(merge.status).toBe(422);
      expect(causesOf(merge.json).map((c) => c.field)).toEqual(['spec', 'spec.mode']);

      const apply = await api.request('PATCH', `${gadgets}/g1?fieldManager=test&force=true`, {
        body: JSON.stringify(gadget('g1', { minReplicas: 1, maxReplicas: 300, mode: 'a' })),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      expect(apply.status).toBe(422);
      expect(causesOf(apply.json)).toEqual([
        { reason: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: maxReplicas 300 is over 100' },
      ]);

      const ok = await api.request('PATCH', `${gadgets}/g1`, {
        body: '{"spec":{"maxReplicas":4}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(ok.status).toBe(200);
      expect((ok.json as Record<string, any>).spec.maxReplicas).toBe(4);
    });
  });
});
