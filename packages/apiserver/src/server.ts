import type { IncomingMessage, ServerResponse } from 'node:http';
import { alwaysAllowAuthorizer, createNodeGraph } from '@orchard/authz';
import type { Codec } from '@orchard/codecs';
import { ApiError } from '@orchard/meta';
import { createRbacEvaluator } from '@orchard/rbac';
import { createMemoryStore, type Store } from '@orchard/store';
import { createTransformingStore } from '@orchard/store-encryption';
import { auditIdOf } from './audit/record.js';
import { createServerAudit } from './audit/server-audit.js';
import {
  createServerAuthentication,
  type ServerAuthentication,
} from './authentication/server-authentication.js';
import type { AuthorizerGauge } from './authorization/configured-authorizers.js';
import { buildOffers, defaultCodecs, type ResponseConversion } from './codecs.js';
import { startCrdController } from './crd/controller.js';
import type { CustomResourceConverter } from './crd/conversion.js';
import { toApiError } from './errors.js';
import { featureEnabled, resolveFeatureGates } from './feature-gates.js';
import { admissionFilter } from './filters/admission.js';
import { auditFailedAuthentication, auditFilter } from './filters/audit.js';
import { authenticationFilter, createFixedAuthenticator } from './filters/authentication.js';
import { authorizationFilter } from './filters/authorization.js';
import { composeFilters, type FilterContext } from './filters/filter.js';
import { impersonationFilter, mastersOnlyImpersonationAuthorizer } from './filters/impersonation.js';
import { requestLimitsFilter } from './filters/request-limits.js';
import { requestTimeoutFilter } from './filters/request-timeout.js';
import { WritePipeline } from './handlers/write-pipeline.js';
import { defaultWriteSteps } from './handlers/write-steps.js';
import { addStandardChecks } from './health/checks.js';
import { createHealthChecks, type HealthChecks } from './health/health.js';
import { installLifecycle, type Lifecycle } from './lifecycle/lifecycle.js';
import { createListener } from './listener.js';
import { installMetrics } from './metrics/install.js';
import { registerPlainGauge } from './metrics/plain-gauges.js';
import { recordRequest } from './metrics/request-metrics.js';
import { instrumentStore, registerCacheMetrics } from './metrics/storage-metrics.js';
import { nodeRestrictionStep } from './node/node-restriction.js';
import { type ApiServerOptions, defaultApiServerOptions } from './options.js';
import { rbacEscalationStep } from './rbac/escalation-step.js';
import { rbacGroup } from './rbac/rbac-resources.js';
import { builtinObjects, createBootstrapObjects } from './registry/builtin/bootstrap.js';
import { builtinResources } from './registry/builtin/index.js';
import { createResourceRegistry, type ResourceRegistry } from './registry/registry.js';
import { isClientGone } from './request/body.js';
import { requestPath, resolveRequestInfo } from './request/request-info.js';
import { writeError } from './response/write.js';
import { route } from './router.js';
import {
  authorizesNodes,
  resolveAuthorizer,
  type ServerAuthorization,
  startServerAuthorization,
} from './server-authorization.js';
import { installServiceAllocation, startServiceAllocation } from './services/service-allocation.js';
import type { ServerState } from './state.js';
import { createCompactor } from './storage/compactor.js';
import { untransformableWithoutGate } from './storage/corrupt-objects.js';
import { ObjectStore } from './storage/object-store.js';
import { WatchCaches } from './storage/watch-caches.js';

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
  /** The authentication methods in use (`methods` names them); undefined in insecure mode. */
  readonly authentication: ServerAuthentication | undefined;
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
  /** The authorizer chain and the RBAC state it reads. */
  readonly authorization: ServerAuthorization;
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

export type { ServerAuthorization } from './server-authorization.js';

/**
 * Creates the reference API server: the composition root. Every request runs the filter chain
 * (`filters/`: authentication → impersonation → audit → authorization → admission) and then the
 * router (`router.ts`), which serves resources from the registry, discovery, health and OpenAPI.
 */
export function createApiServer(input: Partial<ApiServerOptions> = {}): ApiServer {
  const options: ApiServerOptions = { ...defaultApiServerOptions, ...input };
  // Unknown gate names fail at start, as upstream's --feature-gates does.
  resolveFeatureGates(options.featureGates ?? {});
  const flavor = options.flavor;
  const ownsStore = options.store === undefined;
  const backing = options.store ?? createMemoryStore();
  const encryption = options.encryption;
  // Below every reader (object store, watch caches, controllers, the unsafe delete), so an
  // encrypted value is one write with one revision on any backend.
  const store = encryption
    ? createTransformingStore(backing, (key) => {
        const gr = ObjectStore.groupResourceOf(key);
        return gr ? encryption.transformerFor(gr) : undefined;
      })
    : backing;
  const metrics = installMetrics(options);
  const objects = new ObjectStore(metrics ? instrumentStore(store, metrics) : store);
  const watchCaches = new WatchCaches(
    objects,
    flavor,
    options.watchCache,
    options.continueTtlMs,
    options.continueTokenKey,
    (prefix, e) =>
      options.logger.error(
        `watch cache ${prefix}: the store watch failed; watches end with 410, re-listing`,
        e,
      ),
  );
  const rbac = createRbacEvaluator();
  const nodeGraph = createNodeGraph();
  const closingController = new AbortController();
  const authorizerGauges: AuthorizerGauge[] = [];
  const authorizer = resolveAuthorizer(options, rbac, nodeGraph, closingController.signal, authorizerGauges);
  if (metrics)
    for (const g of authorizerGauges)
      registerPlainGauge(metrics, g.gauge, g.labelNames, { stabilityLevel: 'ALPHA' });
  const registry = createResourceRegistry([
    ...(options.builtinResources ? builtinResources(flavor, () => authorizer) : []),
    ...options.resources,
  ]);
  if (metrics) registerCacheMetrics(metrics, watchCaches, registry);
  const codecs: Codec[] = [...(options.codecs ?? defaultCodecs(flavor, options.featureGates))];
  const conversions: ResponseConversion[] = [...options.responseConversions];
  // Aborted when close() begins: /readyz fails from then on, while requests are still served for
  // `shutdownDelaySeconds` (upstream `--shutdown-delay-duration`) so load balancers can drain.
  const drainingController = new AbortController();
  const health = createHealthChecks({ livezGracePeriodMs: options.livezGracePeriodMs });
  addStandardChecks(health, store, drainingController.signal);
  // The server's start-up work, under upstream's post-start hook names.
  health.addHook('bootstrap-controller');
  health.addHook('rbac/bootstrap-roles');
  if (registry.get(flavor.group('apiextensions'), 'customresourcedefinitions'))
    health.addHook('start-apiextensions-controllers');
  const writePipeline = new WritePipeline(defaultWriteSteps);
  writePipeline.insertAfter(
    'validation',
    rbacEscalationStep(rbacGroup(flavor), () => authorizer, rbac),
  );
  const nodeRestriction = options.nodeRestriction ?? authorizesNodes(options);
  if (nodeRestriction) writePipeline.insertBefore('strategy-prepare', nodeRestrictionStep(flavor));
  const log = options.logger;
  const serviceAllocator = installServiceAllocation(options, objects, registry, writePipeline);
  // A malformed policy fails createApiServer (the CLI exits naming the field).
  const audit = createServerAudit(options.audit, flavor, log);
  const insecure = options.anonymousIsAdmin ?? options.tls === undefined;
  // Built before the state so that a bad key or issuer fails createApiServer, not the first request.
  const authentication = insecure
    ? undefined
    : createServerAuthentication({
        flavor,
        objects,
        options: options.authentication ?? {},
        clientCa: options.tls?.clientCa,
        requestHeaderClientCa: options.tls?.requestHeaderClientCa,
        onFailure: (detail) => log.info(`authentication failed: ${detail}`),
      });
  const state: ServerState = {
    flavor,
    authentication,
    options,
    registry,
    converters: new Map(),
    store,
    objects,
    watchCaches,
    codecs,
    offers: buildOffers(codecs, conversions, flavor),
    writePipeline,
    nodeRestriction,
    authorizer,
    health,
    metrics,
    log,
    serviceAllocator,
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
  /** The abort controllers of requests that asked for a signal (watches); aborted on close(). */
  const openRequests = new Set<AbortController>();
  closingController.signal.addEventListener('abort', () => {
    for (const c of openRequests) c.abort();
    openRequests.clear();
  });

  const ready = (async () => {
    if (options.createDefaultNamespaces)
      await createBootstrapObjects(objects, registry, builtinObjects(flavor));
    if (serviceAllocator)
      await startServiceAllocation(serviceAllocator, objects, flavor, options.createDefaultNamespaces, (m) =>
        log.info(m),
      );
    health.completeHook('bootstrap-controller');
    if (registry.get(flavor.group('apiextensions'), 'customresourcedefinitions')) {
      await startCrdController(state, closingController.signal);
      health.completeHook('start-apiextensions-controllers');
    }
  })();
  // RBAC is loaded after start-up; requests wait for it (`listen`).
  const {
    authorization,
    ready: rbacReady,
    requestAuthorizer,
  } = startServerAuthorization(state, rbac, nodeGraph, ready, closingController.signal);
  ready.catch((e) => log.error('start-up failed', e));
  rbacReady.then(
    () => health.completeHook('rbac/bootstrap-roles'),
    () => undefined,
  );
  const authenticator =
    options.authenticator ?? authentication?.union ?? createFixedAuthenticator(options.insecureUser);
  const chain = composeFilters(
    [
      authenticationFilter(authenticator, {
        ...(authentication ? { readClientCertificate: authentication.readClientCertificate } : {}),
        authorizerDecidesAnonymous: authorizer !== alwaysAllowAuthorizer,
      }),
      // As upstream: after authentication, before impersonation and limits, so refusals are audited.
      auditFilter(audit),
      requestLimitsFilter(options),
      requestTimeoutFilter(options.requestTimeoutMs),
      impersonationFilter(
        authorizer === alwaysAllowAuthorizer ? mastersOnlyImpersonationAuthorizer : authorizer,
        flavor,
      ),
      authorizationFilter(requestAuthorizer),
      admissionFilter({ nodeRestriction }),
    ],
    route,
  );

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res).catch((e) => {
      log.error('request handler failed', e);
      if (!res.headersSent) writeError({ res, flavor }, toApiError(e, undefined, log.error));
      else res.destroy();
    });
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The path as sent, dot segments kept: authentication, resolution and routing read the same one.
    const info = resolveRequestInfo(req.method ?? 'GET', requestPath(req.url ?? '/'), url.searchParams);
    const ctx = newFilterContext(req, res, url, info, auditIdOf(req));
    res.setHeader('Audit-ID', ctx.auditID);
    const startedAt = metrics ? performance.now() : 0;
    try {
      await chain(ctx);
      if (metrics) recordRequest(metrics, ctx, res.statusCode, startedAt);
    } catch (e) {
      // A client that went away gets no answer, and is no server error.
      if (isClientGone(e) || (res.destroyed && !res.headersSent)) return;
      const target = ctx.def
        ? { group: ctx.def.group, resource: ctx.def.resource, name: info.name }
        : undefined;
      const err =
        (featureEnabled(options.featureGates, 'AllowUnsafeMalformedObjectDeletion')
          ? undefined
          : untransformableWithoutGate(e)) ?? toApiError(e, target, log.error);
      if (res.headersSent) {
        res.end();
        return;
      }
      writeError({ res, accept: req.headers.accept, flavor, offers: state.offers }, err);
      if (metrics) recordRequest(metrics, ctx, err.code, startedAt);
      auditFailedAuthentication(audit, ctx, err);
    }
  }

  function newFilterContext(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    info: FilterContext['info'],
    auditID: string,
  ): FilterContext {
    // The request's abort signal is created on first use (only watches need it): an
    // AbortController per request and its abort on every response close are measurable costs.
    let abort: AbortController | undefined;
    return {
      req,
      res,
      url,
      info,
      user: undefined,
      auditID,
      server: state,
      ready,
      get signal() {
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
      },
    };
  }

  const listener = createListener(handle, flavor, options);

  return {
    handle,
    ready: rbacReady,
    registry,
    authentication,
    storage: store,
    objects,
    watchCaches,
    writePipeline,
    health,
    options,
    lifecycle,
    authorization,
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
      const address = await listener.listen(port, host);
      await ready;
      await rbacReady;
      return address;
    },
    async close() {
      drainingController.abort();
      if (options.shutdownDelaySeconds > 0 && listener.listening)
        await new Promise((r) => setTimeout(r, options.shutdownDelaySeconds * 1000));
      closingController.abort();
      await listener.close();
      await compactor.stop();
      await watchCaches.stop();
      await lifecycle.stop();
      await audit?.writer.close();
      if (ownsStore) await store.close();
    },
  };
}

export { ApiError };
