import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { type Codec, contentTypeOf, negotiate, type Offer } from '@orchard/codecs';
import { ApiError, errors, isValidPathSegmentName, newUid } from '@orchard/meta';
import { createMemoryStore, isStoreError, type Store } from '@orchard/store';
import { buildOffers, defaultCodecs, type ResponseConversion } from './codecs.js';
import type { RequestContext } from './context.js';
import { startCrdController } from './crd/controller.js';
import type { CustomResourceConverter } from './crd/conversion.js';
import { aggregated, coreVersions, group, groupList, resourceList } from './discovery/discovery.js';
import { toApiError } from './errors.js';
import { resolveFeatureGates } from './feature-gates.js';
import {
  type Authenticator,
  createClientCertAuthenticator,
  createFixedAuthenticator,
} from './filters/authentication.js';
import { createMaxInFlight } from './filters/max-in-flight.js';
import {
  isRequestTimeout,
  requestBodyTimedOut,
  requestTimeoutMs,
  withTimeout,
} from './filters/request-timeout.js';
import { createWatchLimit } from './filters/watch-limit.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { handleScale } from './handlers/scale.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';
import { WritePipeline } from './handlers/write-pipeline.js';
import { defaultWriteSteps } from './handlers/write-steps.js';
import { addStandardChecks } from './health/checks.js';
import { createHealthChecks, type HealthChecks, type HealthEndpoint } from './health/health.js';
import { installLifecycle, type Lifecycle } from './lifecycle/lifecycle.js';
import { serveOpenApi } from './openapi/openapi.js';
import { type ApiServerOptions, defaultApiServerOptions } from './options.js';
import { builtinResources } from './registry/builtin/index.js';
import { namespaceNameLabel } from './registry/builtin/namespaces.js';
import { createResourceRegistry, type ResourceRegistry } from './registry/registry.js';
import type { ResourceDefinition, Verb } from './registry/resource.js';
import { isClientGone } from './request/body.js';
import { parseRequestQuery } from './request/query.js';
import { requestPath, resolveRequestInfo } from './request/request-info.js';
import { send, writeError, writeJson } from './response/write.js';
import type { ServerState } from './state.js';
import { createCompactor } from './storage/compactor.js';
import { ObjectStore } from './storage/object-store.js';
import { WatchCaches } from './storage/watch-caches.js';
import { versionInfo } from './version.js';

/** The reference API server: a request handler plus the pieces other packages plug into. */
export interface ApiServer {
  /** The Node request handler; mount it in any `http`/`https` server. */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Starts listening (default 127.0.0.1, port 0 = any free port). Resolves with the URL. */
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>;
  /** Ends watches, stops listening, closes connections. The store is closed only if the server created it. */
  close(): Promise<void>;
  /** Resolves when start-up work (default namespaces) is done. */
  readonly ready: Promise<void>;
  readonly registry: ResourceRegistry;
  /** The storage backend. */
  readonly storage: Store;
  readonly objects: ObjectStore;
  /** The per-resource watch caches get/list/watch are served from (`restartAll()` forces every watch to 410). */
  readonly watchCaches: WatchCaches;
  /** Named write steps: insert your own; one that changes the object goes before `field-manager` (`insertBefore('field-manager', …)`) so managedFields records it. */
  readonly writePipeline: WritePipeline;
  readonly health: HealthChecks;
  readonly options: ApiServerOptions;
  /** The deletion lifecycle: namespace controller and garbage collector (`idle()` for tests). */
  readonly lifecycle: Lifecycle;
  /** Adds a wire codec (Protobuf, CBOR) for requests and responses. */
  addCodec(codec: Codec): void;
  /**
   * Plugs a converter in for the custom resources of `group`/`kind` (every version change: reads at
   * a non-storage version, writes to the storage version); `undefined` restores `None` conversion.
   */
  setCustomResourceConverter(
    group: string,
    kind: string,
    converter: CustomResourceConverter | undefined,
  ): void;
  /** Adds a response conversion selected by Accept parameters (Table). */
  addResponseConversion(conversion: ResponseConversion): void;
}

const publicPaths = /^\/(version|livez|readyz|healthz)(\/.*)?$/;
/**
 * TLS 1.2 or later, and on 1.2 only forward-secret AEAD suites (upstream's default list minus the
 * CBC ones); TLS 1.3 suites are all strong and are left as Node has them.
 */
const tlsHardening = Object.freeze({
  minVersion: 'TLSv1.2' as const,
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: true,
});
const healthPaths = /^\/(livez|readyz|healthz)(\/.*)?$/;
const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function createApiServer(input: Partial<ApiServerOptions> = {}): ApiServer {
  const options: ApiServerOptions = { ...defaultApiServerOptions, ...input };
  // Unknown gate names fail at start, as upstream's --feature-gates does.
  resolveFeatureGates(options.featureGates ?? {});
  const flavor = options.flavor;
  const ownsStore = options.store === undefined;
  const store = options.store ?? createMemoryStore();
  const objects = new ObjectStore(store);
  const watchCaches = new WatchCaches(objects, flavor, options.watchCache, options.continueTtlMs);
  const registry = createResourceRegistry([
    ...(options.builtinResources ? builtinResources(flavor) : []),
    ...options.resources,
  ]);
  const codecs: Codec[] = [...(options.codecs ?? defaultCodecs(flavor, options.featureGates))];
  const conversions: ResponseConversion[] = [...options.responseConversions];
  const closingController = new AbortController();
  // Aborted when close() begins: /readyz fails from then on, while requests are still served for
  // `shutdownDelaySeconds` (upstream `--shutdown-delay-duration`) so load balancers can drain.
  const drainingController = new AbortController();
  const health = createHealthChecks();
  addStandardChecks(health, store, drainingController.signal);
  health.addHook('bootstrap-namespaces');
  const writePipeline = new WritePipeline(defaultWriteSteps);
  const log = options.logger;
  const state: ServerState = {
    flavor,
    options,
    registry,
    converters: new Map(),
    store,
    objects,
    watchCaches,
    codecs,
    offers: buildOffers(codecs, conversions, flavor),
    writePipeline,
    health,
    log,
    closing: closingController.signal,
  };
  const lifecycle = installLifecycle(state);
  // Bounds the store's history as upstream's etcd compaction does; never closer to now than the
  // watch window, since the caches serve nothing below the store's compacted revision.
  const compactor = createCompactor(store, {
    intervalMs: options.compactionIntervalMs,
    minRetainMs: watchCaches.settings.windowMs,
    ...(options.compactionTimers ? { timers: options.compactionTimers } : {}),
    onError: (e) => log.error('store compaction failed', e),
  });
  const authenticator: Authenticator =
    (options.anonymousIsAdmin ?? options.tls === undefined)
      ? createFixedAuthenticator(options.insecureUser)
      : createClientCertAuthenticator();

  /** The abort controllers of requests that asked for a signal (watches); aborted on close(). */
  const openRequests = new Set<AbortController>();
  closingController.signal.addEventListener('abort', () => {
    for (const c of openRequests) c.abort();
    openRequests.clear();
  });
  const inFlight = createMaxInFlight(options.maxRequestsInflight, options.maxMutatingRequestsInflight);
  const watchLimit = createWatchLimit(options.maxWatchesPerUser);

  const ready = bootstrap();
  ready.catch((e) => log.error('start-up failed', e));

  async function bootstrap(): Promise<void> {
    if (options.createDefaultNamespaces && registry.get('', 'namespaces')) {
      for (const name of flavor.defaultNamespaces) {
        const key = objects.key({ group: '', resource: 'namespaces', namespace: '' }, name);
        try {
          await objects.create(key, {
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: {
              name,
              uid: newUid(),
              creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
              labels: { [namespaceNameLabel(flavor)]: name },
            },
            spec: { finalizers: [flavor.namespaceFinalizer] },
            status: { phase: 'Active' },
          });
        } catch (e) {
          if (!isStoreError(e, 'AlreadyExists')) throw e;
        }
      }
    }
    if (registry.get(flavor.group('apiextensions'), 'customresourcedefinitions')) {
      await startCrdController(state, closingController.signal);
    }
    health.completeHook('bootstrap-namespaces');
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res).catch((e) => {
      log.error('request handler failed', e);
      if (!res.headersSent) writeError({ res, flavor }, toApiError(e, undefined, log.error));
      else res.destroy();
    });
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const accept = req.headers.accept;
    // The request's abort signal is created on first use (only watches need it): an
    // AbortController per request and its abort on every response close are measurable costs.
    let abort: AbortController | undefined;
    const signal = (): AbortSignal => {
      if (abort) return abort.signal;
      const controller = new AbortController();
      abort = controller;
      if (res.closed || closingController.signal.aborted) controller.abort();
      // Registered in a set the shutdown walks, not as a listener on the shared closing signal:
      // 10,000 watches would be 10,000 listeners on one emitter.
      openRequests.add(controller);
      res.once('close', () => {
        openRequests.delete(controller);
        controller.abort();
      });
      return controller.signal;
    };
    let ctx: RequestContext | undefined;
    let leave: (() => void) | undefined;
    try {
      const user = authenticator.authenticate(req);
      // The path as sent, dot segments kept: authentication, resolution and routing read the same one.
      const path = requestPath(req.url ?? '/');
      if (!user && !publicPaths.test(path)) throw errors.unauthorized();
      const info = resolveRequestInfo(req.method ?? 'GET', path, url.searchParams);
      const watch = info.isResourceRequest && info.verb === 'watch';
      // Health checks are never shed: a load balancer must see a busy server as alive.
      if (watch) leave = watchLimit.open(user);
      else if (!healthPaths.test(path))
        leave = inFlight.enter(mutatingMethods.has(req.method ?? 'GET'), user);
      const timeoutMs = watch
        ? 0
        : requestTimeoutMs(url.searchParams.get('timeout'), options.requestTimeoutMs);
      if (!info.isResourceRequest) {
        await withTimeout(
          serveNonResource(req, res, url, info.apiGroup, info.apiVersion, info.apiPrefix),
          timeoutMs,
        );
        return;
      }
      const query = parseRequestQuery(url.searchParams);
      await ready;
      const def = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
      const group = info.apiPrefix === 'api' ? '' : info.apiGroup;
      if (!def || (info.apiPrefix === 'api' && info.apiGroup !== '') || def.group !== group)
        throw errors.pathNotFound();
      ctx = {
        req,
        res,
        url,
        info,
        query,
        user: user ?? options.insecureUser,
        server: state,
        def,
        version: info.apiVersion,
        warnings: [],
        get signal() {
          return signal();
        },
      };
      await withTimeout(dispatch(ctx, def), timeoutMs);
    } catch (e) {
      // A client that went away gets no answer, and is no server error.
      if (isClientGone(e) || (res.destroyed && !res.headersSent)) return;
      // Out of time while the client is still sending its body: its fault (408), not the server's.
      const failure = isRequestTimeout(e) && !req.complete ? requestBodyTimedOut(res) : e;
      const target = ctx?.def
        ? { group: ctx.def.group, resource: ctx.def.resource, name: ctx.info.name }
        : undefined;
      const err = toApiError(failure, target, log.error);
      if (res.headersSent) {
        res.end();
        return;
      }
      writeError({ res, accept, flavor, offers: state.offers }, err);
    } finally {
      leave?.();
    }
  }

  async function dispatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
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
    if (
      def.namespaced &&
      info.namespace === '' &&
      !(info.name === '' && (verb === 'list' || verb === 'watch'))
    ) {
      throw errors.pathNotFound();
    }
    if (!def.namespaced && info.namespace !== '' && info.resource !== 'namespaces')
      throw errors.pathNotFound();
    // A collection path serves list, watch, create and deletecollection; an item path serves the
    // single-object verbs; POST to an item exists only for sub-resources (token, eviction …).
    const itemVerb = verb === 'get' || verb === 'update' || verb === 'patch' || verb === 'delete';
    if (
      (info.name === '' && itemVerb) ||
      (info.name !== '' && info.subresource === '' && verb === 'create')
    ) {
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    let allowed: readonly Verb[] = def.verbs;
    if (info.subresource !== '') {
      const sub = def.subresources.find((s) => s.name === info.subresource);
      if (!sub) throw errors.pathNotFound();
      allowed = sub.verbs;
    }
    if (!allowed.includes(verb)) {
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
    if (info.subresource === 'scale') return handleScale(ctx, def);
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
        throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    }
  }

  async function serveNonResource(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    apiGroup: string,
    apiVersion: string,
    apiPrefix: string,
  ): Promise<void> {
    const path = requestPath(req.url ?? '/').replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    const health = /^\/(livez|readyz|healthz)(?:\/(.+))?$/.exec(path);
    if (health) {
      if (method !== 'GET' && !head)
        throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
      const r = await state.health.evaluate(health[1] as HealthEndpoint, health[2], url.searchParams);
      send(res, r.code, 'text/plain; charset=utf-8', r.body, {}, head);
      return;
    }
    if (method !== 'GET' && !head) throw errors.pathNotFound();
    if (path === '/version') return writeJson(res, 200, versionInfo(), 'application/json', head);
    if (path.startsWith('/openapi/')) {
      await ready;
      if (serveOpenApi(state, req, res, path, url)) return;
    }
    if (path === '/') {
      return writeJson(
        res,
        200,
        {
          paths: [
            '/api',
            '/api/v1',
            '/apis',
            ...registry
              .groups()
              .filter((g) => g.name)
              .flatMap((g) => [`/apis/${g.name}`, ...g.versions.map((v) => `/apis/${g.name}/${v}`)]),
            '/healthz',
            '/livez',
            '/readyz',
            '/version',
          ],
        },
        'application/json',
        head,
      );
    }
    await ready;
    if (path === '/api' || path === '/apis') {
      const which = path === '/api' ? 'api' : 'apis';
      const g = flavor.group('apidiscovery');
      const offers: (Offer & { v?: 'v2' | 'v2beta1' })[] = [
        { mediaType: 'application/json', target: { as: 'APIGroupDiscoveryList', g, v: 'v2' }, v: 'v2' },
        {
          mediaType: 'application/json',
          target: { as: 'APIGroupDiscoveryList', g, v: 'v2beta1' },
          v: 'v2beta1',
        },
        { mediaType: 'application/json' },
      ];
      const n = negotiate(req.headers.accept, offers);
      if (!n) throw errors.notAcceptable(offers.map(contentTypeOf));
      if (n.offer.v) {
        const body = aggregated(registry, flavor, which, n.offer.v);
        // Upstream sends this exact parameter order; kubectl only needs the three parameters.
        return writeJson(
          res,
          200,
          body,
          `application/json;g=${g};v=${n.offer.v};as=APIGroupDiscoveryList`,
          head,
        );
      }
      const host = req.headers.host ?? '127.0.0.1';
      return writeJson(
        res,
        200,
        which === 'api' ? coreVersions(registry, host) : groupList(registry),
        'application/json',
        head,
      );
    }
    if (apiPrefix === 'api' && apiVersion !== '' && apiGroup === '') {
      const list = resourceList(registry, '', apiVersion);
      if (list) return writeJson(res, 200, list, 'application/json', head);
    }
    if (apiPrefix === 'apis' && apiGroup !== '') {
      if (apiVersion === '') {
        const g = group(registry, apiGroup);
        if (g) return writeJson(res, 200, g, 'application/json', head);
      } else {
        const list = resourceList(registry, apiGroup, apiVersion);
        if (list) return writeJson(res, 200, list, 'application/json', head);
      }
    }
    throw errors.pathNotFound();
  }

  let httpServer: Server | undefined;
  const sockets = new Set<Socket>();

  return {
    handle,
    ready,
    registry,
    storage: store,
    objects,
    watchCaches,
    writePipeline,
    health,
    options,
    lifecycle,
    setCustomResourceConverter(group, kind, converter) {
      if (converter) state.converters.set(`${group}/${kind}`, converter);
      else state.converters.delete(`${group}/${kind}`);
    },
    addCodec(codec) {
      codecs.push(codec);
      state.offers = buildOffers(codecs, conversions, flavor);
    },
    addResponseConversion(conversion) {
      conversions.push(conversion);
      state.offers = buildOffers(codecs, conversions, flavor);
    },
    async listen(port = 0, host = '127.0.0.1') {
      if (httpServer) throw new Error('already listening');
      // How often Node checks the header and request deadlines (its default, 30 s, let a slowloris
      // connection live half a minute past its deadline).
      const connectionsCheckingInterval = Math.min(1000, options.requestHeaderTimeoutMs);
      const server = options.tls
        ? createHttpsServer(
            {
              connectionsCheckingInterval,
              ...tlsHardening,
              cert: options.tls.cert,
              key: options.tls.key,
              ...(options.tls.clientCa
                ? { ca: options.tls.clientCa, requestCert: true, rejectUnauthorized: false }
                : {}),
            },
            handle,
          )
        : createHttpServer({ connectionsCheckingInterval }, handle);
      httpServer = server;
      // Slow clients (slowloris): headers within requestHeaderTimeoutMs, else 408 (Node checks the
      // deadline every connectionsCheckingInterval); a stalled body is the timeout filter's 408.
      server.headersTimeout = options.requestHeaderTimeoutMs;
      // A backstop only: the request-timeout filter answers a stalled body first (408).
      server.requestTimeout = Math.max(options.requestTimeoutMs, options.requestHeaderTimeoutMs) + 5000;
      // Requests Node's HTTP parser rejects (malformed framing, oversized headers) still get a Status.
      server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
        if (!socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
          socket.destroy();
          return;
        }
        const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
        const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
        const code = tooLarge ? 431 : timedOut ? 408 : 400;
        const status = JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: tooLarge
            ? 'request header fields too large'
            : timedOut
              ? 'the client did not send the request in time'
              : `malformed HTTP request: ${err.code ?? err.message}`,
          reason: timedOut ? 'Timeout' : 'BadRequest',
          code,
        });
        const text = tooLarge
          ? 'Request Header Fields Too Large'
          : timedOut
            ? 'Request Timeout'
            : 'Bad Request';
        socket.end(
          `HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(status)}\r\nConnection: close\r\n\r\n${status}`,
        );
      });
      server.on(options.tls ? 'secureConnection' : 'connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      await ready;
      const addr = server.address() as AddressInfo;
      const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      return { url: `${options.tls ? 'https' : 'http'}://${hostPart}:${addr.port}`, port: addr.port };
    },
    async close() {
      drainingController.abort();
      if (options.shutdownDelaySeconds > 0 && httpServer) {
        await new Promise((r) => setTimeout(r, options.shutdownDelaySeconds * 1000));
      }
      closingController.abort();
      const server = httpServer;
      if (server) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections?.();
        for (const s of sockets) s.destroy();
        await closed;
      }
      await compactor.stop();
      await watchCaches.stop();
      await lifecycle.stop();
      if (ownsStore) await store.close();
    },
  };
}

export { ApiError };
