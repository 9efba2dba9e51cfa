import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { decodeOpenApiV2Protobuf, encodeOpenApiV2Protobuf } from './openapi-v2.js';

describe('OpenAPI v2 in Protobuf (gnostic openapi.v2.Document)', () => {
  const doc = {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: {
      '/api/v1/namespaces/{namespace}/pods': {
        get: {
          operationId: 'listCoreV1NamespacedPod',
          produces: ['application/json'],
          responses: {
            '200': { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.core.v1.PodList' } },
          },
          'x-kubernetes-action': 'list',
        },
        parameters: [
          { name: 'namespace', in: 'path', required: true, type: 'string', uniqueItems: true },
          { name: 'body', in: 'body', required: true, schema: { type: 'object' } },
          { $ref: '#/parameters/pretty' },
        ],
      },
    },
    definitions: {
      'io.k8s.api.core.v1.Pod': {
        description: 'Pod is a collection of containers.',
        type: 'object',
        required: ['spec'],
        properties: {
          spec: { $ref: '#/definitions/io.k8s.api.core.v1.PodSpec' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          ports: { type: 'array', items: { type: 'integer', format: 'int32', minimum: 1, maximum: 65535 } },
          policy: { type: 'string', enum: ['Always', 'Never'], default: 'Always' },
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }],
      },
    },
  };

  // A CRD's schema is client data: a property named `__proto__` is a name like any other.
  const hostile = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}}',
  );

  it('keeps hostile property names as data', () => {
    const decoded = decodeOpenApiV2Protobuf(encodeOpenApiV2Protobuf({ definitions: { h: hostile } })) as any;
    const names = decoded.definitions.additional_properties[0].value.properties.additional_properties.map(
      (p: any) => p.name,
    );
    expect(names).toEqual(['__proto__', 'constructor']);
    expect(({} as any).type).toBeUndefined();
  });

  it('round-trips definitions, properties, refs, paths and vendor extensions', () => {
    const decoded = decodeOpenApiV2Protobuf(encodeOpenApiV2Protobuf(doc as never)) as any;
    expect(decoded.swagger).toBe('2.0');
    expect(decoded.info).toEqual({ title: 'Kubernetes', version: 'v1.32.0' });
    const [pod] = decoded.definitions.additional_properties;
    expect(pod.name).toBe('io.k8s.api.core.v1.Pod');
    expect(pod.value.type.value).toEqual(['object']);
    expect(pod.value.required).toEqual(['spec']);
    const props = Object.fromEntries(
      pod.value.properties.additional_properties.map((p: any) => [p.name, p.value]),
    );
    expect(Object.keys(props)).toEqual(['spec', 'labels', 'ports', 'policy']);
    expect(props.spec._ref).toBe('#/definitions/io.k8s.api.core.v1.PodSpec');
    expect(props.labels.additional_properties.schema.type.value).toEqual(['string']);
    expect(props.ports.items.schema[0]).toMatchObject({ format: 'int32', minimum: 1, maximum: 65535 });
    expect(props.policy.enum.map((e: any) => parseYaml(e.yaml))).toEqual(['Always', 'Never']);
    expect(parseYaml(props.policy.default.yaml)).toBe('Always');
    const [gvk] = pod.value.vendor_extension;
    expect(gvk.name).toBe('x-kubernetes-group-version-kind');
    expect(parseYaml(gvk.value.yaml)).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    const [path] = decoded.paths.path;
    expect(path.name).toBe('/api/v1/namespaces/{namespace}/pods');
    expect(path.value.get.operation_id).toBe('listCoreV1NamespacedPod');
    expect(path.value.get.responses.response_code[0].value.response.schema.schema._ref).toBe(
      '#/definitions/io.k8s.api.core.v1.PodList',
    );
    const [pathParam, bodyParam, ref] = path.value.parameters;
    expect(pathParam.parameter.non_body_parameter.path_parameter_sub_schema).toMatchObject({
      name: 'namespace',
      in: 'path',
      required: true,
    });
    expect(bodyParam.parameter.body_parameter.schema.type.value).toEqual(['object']);
    expect(ref.json_reference._ref).toBe('#/parameters/pretty');
    expect(Object.prototype).not.toHaveProperty('type');
  });

  it('ignores values of the wrong type instead of failing', () => {
    const odd = { swagger: 1, definitions: { a: 'x', b: { type: 7, properties: [], required: 'no' } } };
    const decoded = decodeOpenApiV2Protobuf(encodeOpenApiV2Protobuf(odd as never)) as any;
    expect(decoded.definitions.additional_properties).toEqual([{ name: 'b', value: {} }]);
  });
});
