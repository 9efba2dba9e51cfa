import { errors, isValidPathSegmentName } from '@orchard/meta';
import type { RequestContext } from './context.js';
import { serveDiscovery } from './discovery/serve.js';
import type { FilterContext, FilterHandler } from './filters/filter.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handlePodLog } from './handlers/pod-log.js';
import { handleScale } from './handlers/scale.js';
import { handleTokenRequest } from './handlers/token-request.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import { serveHealth } from './health/serve.js';
import { serveMetrics } from './metrics/serve.js';
import { serveOpenApi } from './openapi/openapi.js';
import type { ResourceDefinition, UserInfo, Verb } from './registry/resource.js';
import { parseRequestQuery, type RequestQuery } from './request/query.js';
import { writeJson } from './response/write.js';
import { versionInfo } from './version.js';
import { noteDeprecatedRequest } from './versions/deprecation.js';

/**
 * The end of the filter chain: a resource request goes to the verb's handler for the resource
 * type the registry resolves (never a route per type); anything else is health, `/version`,
 * OpenAPI or discovery.
 */
export const route: FilterHandler = (ctx) =>
  ctx.info.isResourceRequest ? serveResource(ctx) : serveNonResource(ctx);

async function serveResource(scope: FilterContext): Promise<void> {
  const { info, server } = scope;
  const query = parseRequestQuery(scope.searchParams);
  await scope.ready;
  const def = server.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  const group = info.apiPrefix === 'api' ? '' : info.apiGroup;
  if (!def || (info.apiPrefix === 'api' && info.apiGroup !== '') || def.group !== group)
    throw errors.pathNotFound();
  scope.def = def;
  const ctx = new ResourceRequestContext(scope, query, scope.user ?? server.options.insecureUser, def);
  noteDeprecatedRequest(server, scope.req, scope.res, def, info.apiVersion, info.subresource, ctx.warnings);
  return dispatch(ctx, def);
}

/**
 * The `RequestContext` of a resource request. A class, so that `url` and `signal` (the filter
 * context's, both lazy) are prototype getters rather than two closures per request.
 */
class ResourceRequestContext implements RequestContext {
  readonly req: FilterContext['req'];
  readonly res: FilterContext['res'];
  readonly info: FilterContext['info'];
  readonly server: FilterContext['server'];
  readonly version: string;
  readonly warnings: string[] = [];

  constructor(
    private readonly scope: FilterContext,
    readonly query: RequestQuery,
    readonly user: UserInfo,
    readonly def: ResourceDefinition,
  ) {
    this.req = scope.req;
    this.res = scope.res;
    this.info = scope.info;
    this.server = scope.server;
    this.version = scope.info.apiVersion;
  }

  get url(): URL {
    return this.scope.url;
  }

  get signal(): AbortSignal {
    return this.scope.signal;
  }
}

const notAllowed = () =>
  errors.methodNotAllowed('the server does not allow this method on the requested resource');

function dispatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const { info } = ctx;
  const verb = info.verb as Verb;
  // A name from the path must be one path segment (not `.`, `..`, nor holding `/` or `%`), as
  // upstream's storage key functions require.
  if (info.name !== '') {
    const invalid = isValidPathSegmentName(info.name);
    if (invalid.length > 0)
      throw errors.badRequest(`Name parameter invalid: ${JSON.stringify(info.name)}: ${invalid.join(';')}`);
  }
  // Namespaced types are addressed inside a namespace, except list/watch across all namespaces.
  if (def.namespaced && info.namespace === '' && !(info.name === '' && (verb === 'list' || verb === 'watch')))
    throw errors.pathNotFound();
  if (!def.namespaced && info.namespace !== '' && info.resource !== 'namespaces') throw errors.pathNotFound();
  // A collection path serves list, watch, create and deletecollection; an item path serves the
  // single-object verbs; POST to an item exists only for sub-resources (token, eviction …).
  const itemVerb = verb === 'get' || verb === 'update' || verb === 'patch' || verb === 'delete';
  if ((info.name === '' && itemVerb) || (info.name !== '' && info.subresource === '' && verb === 'create'))
    throw notAllowed();
  let allowed: readonly Verb[] = def.verbs;
  if (info.subresource !== '') {
    const sub = def.subresources.find((s) => s.name === info.subresource);
    if (!sub) throw errors.pathNotFound();
    allowed = sub.verbs;
  }
  if (!allowed.includes(verb)) throw notAllowed();
  if (info.subresource === 'scale') return handleScale(ctx, def);
  if (info.subresource === 'log' && def.group === '' && def.resource === 'pods')
    return handlePodLog(ctx, def);
  if (info.subresource === 'token' && def.group === '' && def.resource === 'serviceaccounts')
    return handleTokenRequest(ctx, def);
  switch (verb) {
    case 'get':
      return handleGet(ctx, def);
    case 'list':
      return handleList(ctx, def);
    case 'watch':
      return handleWatch(ctx, def);
    case 'create':
      return handleCreate(ctx, def);
    case 'update':
      return handleUpdate(ctx, def);
    case 'patch':
      return handlePatch(ctx, def);
    case 'delete':
      return handleDelete(ctx, def);
    case 'deletecollection':
      return handleDeleteCollection(ctx, def);
    default:
      throw notAllowed();
  }
}

async function serveNonResource(ctx: FilterContext): Promise<void> {
  const { req, res, url, server } = ctx;
  const path = ctx.info.path.replace(/\/+$/, '') || '/';
  if (await serveHealth(req, res, path, url, server.health)) return;
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) throw errors.pathNotFound();
  if (path === '/version') return writeJson(res, 200, versionInfo(), 'application/json', head);
  if (path === '/metrics' && server.metrics) return serveMetrics(req, res, server.metrics);
  if (path.startsWith('/openapi/')) {
    await ctx.ready;
    if (serveOpenApi(server, req, res, path, url)) return;
  }
  if (path !== '/') await ctx.ready;
  if (serveDiscovery(req, res, path, ctx.info, server.registry, server.flavor)) return;
  throw errors.pathNotFound();
}
