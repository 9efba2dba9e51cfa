/**
 * Publishing of OpenAPI documents: one OpenAPI 3.0 document per group version (`/openapi/v3/apis/apps/v1`),
 * the `/openapi/v3` index with content hashes, and one Swagger 2.0 document (`/openapi/v2`).
 * What kubectl 1.32 reads from them: `components.schemas` with the group-version-kind extension
 * (explain, client-side apply), and on each item path a `patch` operation listing the
 * `fieldValidation` parameter and the accepted patch media types (strategic merge only for built-ins).
 */
import type { Flavor } from '@orchard/meta';
import { patchMediaTypes } from '@orchard/meta';
import { typeMetaProps } from './builtin/dsl.js';
import { type OpenApiSchema, toOpenApi } from './openapi.js';
import type { StructuralSchema } from './structural.js';

/** A resource as the documents describe it. */
export interface PublishedResource {
  group: string;
  version: string;
  kind: string;
  /** Plural resource name. */
  resource: string;
  namespaced: boolean;
  schema: StructuralSchema;
  /** Built-in types accept strategic merge patches and get upstream-style schema names. */
  builtin: boolean;
  /** Served sub-resources (`status`, `scale`). */
  subresources?: readonly string[];
  /** Verbs served (default all). */
  verbs?: readonly string[];
}

/** Re-exported for the server's users; defined once in `@orchard/meta`. */

/** The media types a PATCH on this resource accepts, in the order the document lists them. */
export function acceptedPatchTypes(builtin: boolean): string[] {
  return builtin
    ? [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.strategic, patchMediaTypes.apply]
    : [patchMediaTypes.json, patchMediaTypes.merge, patchMediaTypes.apply];
}

function reverseDomain(d: string): string {
  return d.split('.').reverse().join('.');
}

/**
 * The component name of a kind: `io.k8s.api.core.v1.ConfigMap` for built-ins under the
 * kubernetes flavor (`io.orch.api.core.v1.ConfigMap` under orch), the reversed group for custom
 * resources (`com.example.v1.Widget`).
 */
export function schemaName(
  flavor: Flavor,
  group: string,
  version: string,
  kind: string,
  builtin: boolean,
): string {
  const root = reverseDomain(flavor.domain);
  if (!builtin) return `${reverseDomain(group)}.${version}.${kind}`;
  const prefix =
    group === ''
      ? 'core'
      : group.endsWith(`.${flavor.domain}`)
        ? group.slice(0, -flavor.domain.length - 1)
        : group;
  if (prefix === 'apiextensions')
    return `${root}.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  // Upstream's Go package for `rbac.authorization.k8s.io` is `k8s.io/api/rbac`.
  if (prefix === 'rbac.authorization') return `${root}.api.rbac.${version}.${kind}`;
  return `${root}.api.${prefix}.${version}.${kind}`;
}

function metaName(flavor: Flavor, type: string): string {
  return `${reverseDomain(flavor.domain)}.apimachinery.pkg.apis.meta.v1.${type}`;
}

/** `api/v1` or `apis/apps/v1`: the key of a group version in the `/openapi/v3` index. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

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

/**
 * A fast, pure, deterministic content hash (two 32-bit FNV-1a lanes → 16 hex digits, upper
 * case like upstream's) for the `hash` query of `serverRelativeURL` and for ETags.
 */
export function contentHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return ((h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')).toUpperCase();
}

/** The `/openapi/v3` index: `{paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=…"}}}`. */
export function buildOpenApiV3Index(docs: Record<string, { hash: string }>): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const key of Object.keys(docs).sort()) {
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${docs[key]!.hash}` };
  }
  return { paths };
}

/** Structural schema → Swagger 2.0 schema (no `nullable`; int-or-string as `format: int-or-string`). */
function toSwagger(s: OpenApiSchema, flavor: Flavor): OpenApiSchema {
  const out: OpenApiSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable' || k === 'anyOf' || k === 'oneOf' || k === 'not') continue;
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v).map(([n, sub]) => [n, toSwagger(sub as OpenApiSchema, flavor)]),
      );
    } else if ((k === 'items' || k === 'additionalProperties') && v && typeof v === 'object') {
      out[k] = toSwagger(v as OpenApiSchema, flavor);
    } else out[k] = v;
  }
  if (s[flavor.ext('int-or-string')] === true && out.type === undefined) {
    out.type = 'string';
    out.format = 'int-or-string';
  }
  return out;
}

/** The Swagger 2.0 document (`/openapi/v2`, JSON form) of every resource. */
export function buildOpenApiV2(
  resources: readonly PublishedResource[],
  flavor: Flavor,
): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  const gvs = new Map<string, { group: string; version: string }>();
  for (const r of resources) gvs.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  for (const gv of gvs.values()) {
    const v3 = buildOpenApiV3(gv, resources, flavor) as {
      paths: Record<string, any>;
      components: { schemas: Record<string, OpenApiSchema> };
    };
    for (const [name, schema] of Object.entries(v3.components.schemas)) {
      definitions[name] = JSON.parse(
        JSON.stringify(toSwagger(schema, flavor)).replace(/#\/components\/schemas\//g, '#/definitions/'),
      );
    }
    for (const [p, item] of Object.entries(v3.paths)) {
      const converted: Record<string, unknown> = {};
      for (const [method, opv] of Object.entries(item as Record<string, any>)) {
        if (method === 'parameters') {
          converted.parameters = (opv as any[]).map(swaggerParam);
          continue;
        }
        const o = { ...(opv as Record<string, any>) };
        const consumes = o.requestBody ? Object.keys(o.requestBody.content) : undefined;
        const bodySchema = o.requestBody
          ? Object.values(o.requestBody.content as Record<string, any>)[0]?.schema
          : undefined;
        delete o.requestBody;
        o.parameters = [
          ...(bodySchema ? [{ name: 'body', in: 'body', required: true, schema: bodySchema }] : []),
          ...((o.parameters as any[] | undefined) ?? []).map(swaggerParam),
        ];
        if (consumes) o.consumes = consumes;
        o.produces = ['application/json', 'application/yaml', flavor.protobufMediaType];
        o.responses = Object.fromEntries(
          Object.entries(o.responses as Record<string, any>).map(([code, resp]) => [
            code,
            resp.content
              ? { description: resp.description, schema: (Object.values(resp.content)[0] as any).schema }
              : resp,
          ]),
        );
        converted[method] = o;
      }
      paths[p] = JSON.parse(JSON.stringify(converted).replace(/#\/components\/schemas\//g, '#/definitions/'));
    }
  }
  return {
    swagger: '2.0',
    info: { title: flavor.name === 'kubernetes' ? 'Kubernetes' : 'Orchard', version: 'unversioned' },
    paths,
    definitions,
    securityDefinitions: {
      BearerToken: {
        type: 'apiKey',
        description: 'Bearer Token authentication',
        name: 'authorization',
        in: 'header',
      },
    },
    security: [{ BearerToken: [] }],
  };
}

function swaggerParam(p: Record<string, any>): Record<string, unknown> {
  const { schema, ...rest } = p;
  return { ...rest, type: schema?.type ?? 'string', uniqueItems: true };
}
