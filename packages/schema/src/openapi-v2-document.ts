/**
 * The Swagger 2.0 document (`/openapi/v2`): the v3 documents of every group version, converted
 * (definitions instead of components, body parameters, `consumes`/`produces`).
 */
import type { Flavor } from '@orchard/meta';
import type { OpenApiSchema } from './openapi.js';
import { buildOpenApiV3 } from './openapi-v3-document.js';
import type { PublishedResource } from './published-resource.js';

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
