import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  encodeOpenApiV2Protobuf,
  openApiV2ProtobufContentType,
  openApiV2ProtobufMediaType,
} from '@orchard/codecs/protobuf';
import { errors } from '@orchard/meta';
import {
  buildOpenApiV2,
  buildOpenApiV3,
  buildOpenApiV3Index,
  type PublishedResource,
  type StructuralSchema,
} from '@orchard/schema';
import { contentHash, groupVersionPath, objectMetaSchema, typeMetaProps } from '@orchard/schema/internal';
import type { ResourceDefinition } from '../registry/resource.js';
import { send } from '../response/write.js';
import { isCustomResource, schemaFor } from '../schema/schemas.js';
import type { ServerState } from '../state.js';

interface Doc {
  readonly body: string | Uint8Array;
  readonly hash: string;
  readonly contentType: string;
}

interface Cache {
  v3: Map<string, Doc>;
  index: string;
  v2: Doc;
  /** The Protobuf form of `v2`, built on first request (only kubectl's fallbacks ask for it). */
  v2Protobuf?: Doc;
}

const caches = new WeakMap<ServerState, Cache>();
const subscribed = new WeakSet<ServerState>();

function published(state: ServerState): PublishedResource[] {
  const out: PublishedResource[] = [];
  for (const def of state.registry.all() as ResourceDefinition[]) {
    for (const version of def.versions) {
      let schema: StructuralSchema = schemaFor(def, version, state.flavor) ?? {
        type: 'object' as const,
        description: `${def.kind} (no schema published)`,
        preserveUnknownFields: true,
      };
      // A CRD's schema leaves out the fields every object has; publish them (explain shows them).
      if (isCustomResource(def)) {
        schema = {
          ...schema,
          properties: {
            ...typeMetaProps,
            ...schema.properties,
            metadata: objectMetaSchema,
          },
        };
      }
      out.push({
        group: def.group,
        version,
        kind: def.kind,
        resource: def.resource,
        namespaced: def.namespaced,
        schema,
        builtin: !isCustomResource(def),
        subresources: def.subresources.map((s) => s.name),
        verbs: def.verbs,
      });
    }
  }
  return out;
}

function build(state: ServerState): Cache {
  const resources = published(state);
  const v3 = new Map<string, Doc>();
  const gvs = new Map<string, { group: string; version: string }>();
  for (const r of resources)
    gvs.set(groupVersionPath(r.group, r.version), { group: r.group, version: r.version });
  for (const [key, gv] of gvs) {
    const body = JSON.stringify(buildOpenApiV3(gv, resources, state.flavor));
    v3.set(key, { body, hash: contentHash(body), contentType: 'application/json' });
  }
  const index = JSON.stringify(buildOpenApiV3Index(Object.fromEntries(v3)));
  const v2body = JSON.stringify(buildOpenApiV2(resources, state.flavor));
  return { v3, index, v2: { body: v2body, hash: contentHash(v2body), contentType: 'application/json' } };
}

function cacheOf(state: ServerState): Cache {
  if (!subscribed.has(state)) {
    subscribed.add(state);
    state.registry.onChange(() => caches.delete(state));
  }
  let c = caches.get(state);
  if (!c) {
    c = build(state);
    caches.set(state, c);
  }
  return c;
}

function sendDoc(
  req: IncomingMessage,
  res: ServerResponse,
  doc: Doc,
  immutable: boolean,
  head: boolean,
): void {
  const etag = `"${doc.hash}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    Vary: 'Accept',
    ...(immutable ? { 'Cache-Control': 'public, immutable' } : {}),
  };
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  send(res, 200, doc.contentType, doc.body, headers, head);
}

const protobufV2Types = new Set([openApiV2ProtobufMediaType, openApiV2ProtobufContentType]);

/**
 * Whether the Accept header prefers the Protobuf form of `/openapi/v2` (kubectl asks for nothing
 * else); JSON otherwise, as upstream answers JSON and wildcard types.
 */
function wantsProtobufV2(accept: string | undefined): boolean {
  let best: { protobuf: boolean; q: number } | undefined;
  for (const part of (accept ?? '').split(',')) {
    const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    const protobuf = protobufV2Types.has(type);
    if (!protobuf && type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    if (best === undefined || q > best.q) best = { protobuf, q };
  }
  return best?.protobuf ?? false;
}

function v2ProtobufOf(cache: Cache): Doc {
  if (cache.v2Protobuf === undefined) {
    const body = encodeOpenApiV2Protobuf(JSON.parse(cache.v2.body as string) as Record<string, unknown>);
    cache.v2Protobuf = { body, hash: `${cache.v2.hash}-pb`, contentType: openApiV2ProtobufContentType };
  }
  return cache.v2Protobuf;
}

/**
 * Serves `/openapi/v3` (the index with `serverRelativeURL` + hash per group version), the
 * per-group-version OpenAPI 3 documents (ETag = content hash; `If-None-Match` → 304) and
 * `/openapi/v2` (Swagger 2.0, JSON or, when Accept asks for it, gnostic's Protobuf form). Documents are rebuilt after any registry change (a CRD
 * added or removed). Returns false when the path is not an OpenAPI path.
 */
export function serveOpenApi(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
): boolean {
  const head = req.method === 'HEAD';
  if (path === '/openapi/v2') {
    const cache = cacheOf(state);
    sendDoc(req, res, wantsProtobufV2(req.headers.accept) ? v2ProtobufOf(cache) : cache.v2, false, head);
    return true;
  }
  if (path === '/openapi/v3') {
    send(res, 200, 'application/json', cacheOf(state).index, {}, head);
    return true;
  }
  if (path.startsWith('/openapi/v3/')) {
    const doc = cacheOf(state).v3.get(path.slice('/openapi/v3/'.length));
    if (!doc) throw errors.pathNotFound();
    sendDoc(req, res, doc, url.searchParams.get('hash') === doc.hash, head);
    return true;
  }
  return false;
}
