import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeOpenApiV2Protobuf } from '@orchard/codecs/protobuf';
import { crdFixture, kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

const protobufAccept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const protobufContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * `/openapi/v2` in Protobuf (issue 19 item 1): kubectl falls back to it whenever a kind is missing
 * from the v3 documents, and `explain --output=plaintext-openapiv2` reads nothing else. The
 * gnostic media type is the same under both flavors; the definition names and the extension are the
 * flavor's (`io.k8s.api.core.v1.Pod` + `x-kubernetes-…`, `io.orch.api.core.v1.Pod` + `x-orch-…`).
 */
describe.each(flavorNames)('/openapi/v2 in Protobuf (%s flavor)', (flavorName) => {
  const { flavor, kubectl: withKubectl } = flavorUnderTest(flavorName);
  const podDefinition = flavorName === 'kubernetes' ? 'io.k8s.api.core.v1.Pod' : 'io.orch.api.core.v1.Pod';
  let api: TestServer;
  let dir: string;
  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
    dir = mkdtempSync(join(tmpdir(), 'orchard-openapi-v2-'));
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers JSON by default and for JSON or wildcard preferences', async () => {
    for (const accept of [
      undefined,
      'application/json',
      '*/*',
      `${protobufAccept};q=0.5, application/json`,
    ]) {
      const r = await api.request('GET', '/openapi/v2', accept ? { headers: { accept } } : {});
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect((r.json as { swagger: string }).swagger).toBe('2.0');
    }
  });

  it('answers gnostic Protobuf with the definitions and their group-version-kind extensions', async () => {
    for (const accept of [protobufAccept, protobufContentType, `application/json;q=0.9, ${protobufAccept}`]) {
      const r = await api.request('GET', '/openapi/v2', { headers: { accept } });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(protobufContentType);
      const doc = decodeOpenApiV2Protobuf(r.bytes) as any;
      expect(doc.swagger).toBe('2.0');
      const pod = doc.definitions.additional_properties.find((d: any) => d.name === podDefinition);
      const gvk = pod.value.vendor_extension.find(
        (e: any) => e.name === `${flavor.extensionPrefix}group-version-kind`,
      );
      expect(parseYaml(gvk.value.yaml)).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    }
  });

  it('has its own ETag per form, and If-None-Match answers 304', async () => {
    const json = await api.request('GET', '/openapi/v2');
    const pb = await api.request('GET', '/openapi/v2', { headers: { accept: protobufAccept } });
    expect(pb.headers.etag).not.toBe(json.headers.etag);
    const again = await api.request('GET', '/openapi/v2', {
      headers: { accept: protobufAccept, 'if-none-match': String(pb.headers.etag) },
    });
    expect(again.status).toBe(304);
  });

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl explain --output=plaintext-openapiv2 reads it',
    async () => {
      const r = await kubectl(['explain', 'pods.spec.containers.resources', '--output=plaintext-openapiv2'], {
        kubeconfig: api.kubeconfigPath,
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('RESOURCE: resources <Object>');
      expect(r.stdout).toMatch(/limits\s+<map\[string\]>/);
    },
  );

  it.skipIf(!withKubectl || !kubectlAvailable())(
    'kubectl apply of a CRD and its object in one file says to install the CRD first, as upstream',
    async () => {
      const file = join(dir, 'crd-and-object.yaml');
      writeFileSync(
        file,
        [
          stringifyYaml(
            crdFixture({
              group: 'example.com',
              plural: 'widgets',
              kind: 'Widget',
              schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            }),
          ),
          '---',
          'apiVersion: example.com/v1',
          'kind: Widget',
          'metadata: {name: w1}',
          '',
        ].join('\n'),
      );
      const r = await kubectl(['apply', '-f', file], { kubeconfig: api.kubeconfigPath });
      expect(r.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created');
      expect(r.stderr).toContain('no matches for kind "Widget" in version "example.com/v1"');
      expect(r.stderr).toContain('ensure CRDs are installed first');
      expect(r.stderr).not.toContain('proto');
    },
  );
});
