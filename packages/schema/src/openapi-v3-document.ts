/**
 * The OpenAPI 3.0 document of one group version (`/openapi/v3/apis/apps/v1`): component schemas
 * with the group-version-kind extension, and every resource path with its operations.
 */
import type { Flavor } from '@orchard/meta';
import { typeMetaProps } from './builtin/dsl.js';
import { type OpenApiSchema, toOpenApi } from './openapi.js';
import { groupVersionPath, metaName, schemaName } from './openapi-names.js';
import { acceptedPatchTypes, type PublishedResource } from './published-resource.js';

function param(
  name: string,
  where: 'query' | 'path',
  description: string,
  type = 'string',
): Record<string, unknown> {
  return {
    name,
    in: where,
    description,
    ...(where === 'path' ? { required: true } : {}),
    schema: { type, uniqueItems: true },
  };
}

const commonWriteParams = (): Record<string, unknown>[] => [
  param(
    'dryRun',
    'query',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ),
  param(
    'fieldManager',
    'query',
    'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  ),
  param(
    'fieldValidation',
    'query',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ),
];

/**
 * The OpenAPI 3.0 document of one group version: `components.schemas` (each kind with the
 * `x-…-group-version-kind` extension, its List, and the meta types referenced) and the paths of
 * every resource with their operations.
 */
export function buildOpenApiV3(
  groupVersion: { group: string; version: string },
  resources: readonly PublishedResource[],
  flavor: Flavor,
): Record<string, unknown> {
  const gvkExt = flavor.ext('group-version-kind');
  const actionExt = flavor.ext('action');
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  const statusRef = { $ref: `#/components/schemas/${metaName(flavor, 'Status')}` };
  schemas[metaName(flavor, 'Status')] = {
    description: "Status is a return value for calls that don't return other objects.",
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      code: {
        type: 'integer',
        format: 'int32',
        description: 'Suggested HTTP return code for this status, 0 if not set.',
      },
      message: {
        type: 'string',
        description: 'A human-readable description of the status of this operation.',
      },
      reason: {
        type: 'string',
        description: 'A machine-readable description of why this operation is in the "Failure" status.',
      },
      status: { type: 'string', description: 'Status of the operation. One of: "Success" or "Failure".' },
      details: {
        type: 'object',
        description: 'Extended data associated with the reason.',
        [flavor.ext('preserve-unknown-fields')]: true,
      },
      metadata: {
        type: 'object',
        description: 'Standard list metadata.',
        [flavor.ext('preserve-unknown-fields')]: true,
      },
    },
    [gvkExt]: [{ group: '', kind: 'Status', version: 'v1' }],
  };
  // apiVersion and kind of every list schema, in the flavor's wire form (one conversion per document).
  const typeMetaWire = toOpenApi({ type: 'object', properties: typeMetaProps }, flavor).properties as Record<
    string,
    OpenApiSchema
  >;
  schemas[metaName(flavor, 'Patch')] = {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  };

  for (const r of resources) {
    if (r.group !== groupVersion.group || r.version !== groupVersion.version) continue;
    const gvk = { group: r.group, kind: r.kind, version: r.version };
    const name = schemaName(flavor, r.group, r.version, r.kind, r.builtin);
    const wire = toOpenApi({ ...r.schema, groupVersionKind: undefined }, flavor);
    wire[gvkExt] = [gvk];
    schemas[name] = wire;
    const listName = `${name}List`;
    schemas[listName] = {
      description: `${r.kind}List is a list of ${r.kind} objects.`,
      type: 'object',
      required: ['items'],
      properties: {
        ...typeMetaWire,
        items: {
          type: 'array',
          description: `List of ${r.kind} objects.`,
          items: { $ref: `#/components/schemas/${name}` },
        },
        metadata: {
          type: 'object',
          description: 'Standard list metadata.',
          [flavor.ext('preserve-unknown-fields')]: true,
        },
      },
      [gvkExt]: [{ group: r.group, kind: `${r.kind}List`, version: r.version }],
    };

    const ref = { $ref: `#/components/schemas/${name}` };
    const listRef = { $ref: `#/components/schemas/${listName}` };
    const json = (schema: unknown) => ({
      'application/json': { schema },
      'application/yaml': { schema },
    });
    const ok = (schema: unknown) => ({ description: 'OK', content: json(schema) });
    const base = `/${groupVersionPath(r.group, r.version)}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}`;
    const pathParams = (withName: boolean) => [
      ...(withName ? [param('name', 'path', `name of the ${r.kind}`)] : []),
      ...(r.namespaced
        ? [param('namespace', 'path', 'object name and auth scope, such as for teams and projects')]
        : []),
      param('pretty', 'query', "If 'true', then the output is pretty printed."),
    ];
    const op = (action: string, id: string, extra: Record<string, unknown>) => ({
      description: `${action} ${r.kind}`,
      operationId: `${action}${r.kind}`,
      tags: [groupVersionPath(r.group, r.version).replace(/\//g, '_')],
      [gvkExt]: gvk,
      [actionExt]: id,
      responses: { '401': { description: 'Unauthorized' } },
      ...extra,
    });
    const verbs = new Set(
      r.verbs ?? ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
    );
    const collection: Record<string, unknown> = { parameters: pathParams(false) };
    if (verbs.has('list'))
      collection.get = op('list', 'list', {
        parameters: [
          'continue',
          'fieldSelector',
          'labelSelector',
          'limit',
          'resourceVersion',
          'resourceVersionMatch',
          'sendInitialEvents',
          'timeoutSeconds',
          'watch',
          'allowWatchBookmarks',
        ].map((p) =>
          param(
            p,
            'query',
            p,
            p === 'limit' || p === 'timeoutSeconds'
              ? 'integer'
              : p === 'watch' || p === 'allowWatchBookmarks' || p === 'sendInitialEvents'
                ? 'boolean'
                : 'string',
          ),
        ),
        responses: { '200': ok(listRef), '401': { description: 'Unauthorized' } },
      });
    if (verbs.has('create'))
      collection.post = op('create', 'post', {
        parameters: commonWriteParams(),
        requestBody: { content: json(ref), required: true },
        responses: {
          '200': ok(ref),
          '201': { description: 'Created', content: json(ref) },
          '202': { description: 'Accepted', content: json(ref) },
          '401': { description: 'Unauthorized' },
        },
      });
    if (verbs.has('deletecollection'))
      collection.delete = op('deletecollection', 'deletecollection', {
        responses: { '200': ok(statusRef), '401': { description: 'Unauthorized' } },
      });
    paths[base] = collection;

    const itemOps = (kindSuffix: string): Record<string, unknown> => {
      const item: Record<string, unknown> = { parameters: pathParams(true) };
      if (verbs.has('get'))
        item.get = op(`read${kindSuffix}`, 'get', {
          responses: { '200': ok(ref), '401': { description: 'Unauthorized' } },
        });
      if (verbs.has('update'))
        item.put = op(`replace${kindSuffix}`, 'put', {
          parameters: commonWriteParams(),
          requestBody: { content: json(ref), required: true },
          responses: {
            '200': ok(ref),
            '201': { description: 'Created', content: json(ref) },
            '401': { description: 'Unauthorized' },
          },
        });
      if (verbs.has('patch')) {
        const patchSchema = { $ref: `#/components/schemas/${metaName(flavor, 'Patch')}` };
        item.patch = op(`patch${kindSuffix}`, 'patch', {
          parameters: [
            ...commonWriteParams(),
            param(
              'force',
              'query',
              'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
              'boolean',
            ),
          ],
          requestBody: {
            content: Object.fromEntries(
              acceptedPatchTypes(r.builtin).map((t) => [t, { schema: patchSchema }]),
            ),
            required: true,
          },
          responses: {
            '200': ok(ref),
            '201': { description: 'Created', content: json(ref) },
            '401': { description: 'Unauthorized' },
          },
        });
      }
      if (verbs.has('delete') && kindSuffix === '')
        item.delete = op('delete', 'delete', {
          responses: {
            '200': ok(statusRef),
            '202': { description: 'Accepted', content: json(statusRef) },
            '401': { description: 'Unauthorized' },
          },
        });
      return item;
    };
    paths[`${base}/{name}`] = itemOps('');
    for (const sub of r.subresources ?? []) {
      if (sub === 'status') paths[`${base}/{name}/status`] = itemOps('Status');
    }
    if (r.namespaced && verbs.has('list')) {
      paths[`/${groupVersionPath(r.group, r.version)}/${r.resource}`] = {
        parameters: [param('pretty', 'query', "If 'true', then the output is pretty printed.")],
        get: op('listForAllNamespaces', 'list', {
          responses: { '200': ok(listRef), '401': { description: 'Unauthorized' } },
        }),
      };
    }
  }

  return {
    openapi: '3.0.0',
    info: { title: flavor.name === 'kubernetes' ? 'Kubernetes' : 'Orchard', version: 'unversioned' },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
  };
}
