import { decodeProtobuf, encodeProtobuf } from '@orchard/codecs/protobuf';
import { flavorByName } from '@orchard/meta';
import { crdFixture, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two servers of different flavors in one process share no state: Protobuf encodes and decodes
 * CRDs (whose schemas carry the flavor's extension fields, `x-orch-…` / `x-kubernetes-…`) on both
 * at once, and each answer carries its own flavor's names.
 */
describe('an orch and a kubernetes server side by side', () => {
  const servers: Record<'orch' | 'kubernetes', TestServer> = {} as never;
  beforeAll(async () => {
    servers.orch = await startTestServer({ flavor: 'orch', insecureHttp: true });
    servers.kubernetes = await startTestServer({ flavor: 'kubernetes', insecureHttp: true });
  });
  afterAll(async () => {
    await Promise.all([servers.orch.stop(), servers.kubernetes.stop()]);
  });

  const crd = (flavor: 'orch' | 'kubernetes', i: number) => {
    const f = flavorByName(flavor);
    return crdFixture({
      flavor,
      group: 'side.example.com',
      plural: `things${i}`,
      kind: `Thing${i}`,
      schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            [`${f.extensionPrefix}preserve-unknown-fields`]: true,
            properties: { port: { [`${f.extensionPrefix}int-or-string`]: true } },
          },
        },
      },
    });
  };

  it('encodes and decodes Protobuf on both concurrently, each with its own extension names', async () => {
    const rounds = 20;
    const work = (['orch', 'kubernetes'] as const).flatMap((flavor) => {
      const f = flavorByName(flavor);
      const s = servers[flavor];
      const base = `${s.url}/apis/${f.group('apiextensions')}/v1/customresourcedefinitions`;
      return Array.from({ length: rounds }, async (_, i) => {
        // Protobuf in (the server decodes with its flavor) and Protobuf out (it encodes with it).
        const created = await fetch(base, {
          method: 'POST',
          headers: { 'content-type': f.protobufMediaType, accept: f.protobufMediaType },
          body: encodeProtobuf(crd(flavor, i), f),
        });
        expect(created.status).toBe(201);
        const got = await fetch(`${base}/things${i}.side.example.com`, {
          headers: { accept: f.protobufMediaType },
        });
        const obj = decodeProtobuf(new Uint8Array(await got.arrayBuffer()), f) as unknown as {
          spec: {
            versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[];
          };
        };
        const spec = obj.spec.versions[0]?.schema.openAPIV3Schema.properties.spec ?? {};
        expect(spec[`${f.extensionPrefix}preserve-unknown-fields`]).toBe(true);
        const other = flavor === 'orch' ? 'x-kubernetes-' : 'x-orch-';
        expect(Object.keys(spec).some((k) => k.startsWith(other))).toBe(false);
      });
    });
    await Promise.all(work);
  });
});
