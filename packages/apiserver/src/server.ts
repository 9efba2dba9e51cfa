import { createNodeGraph } from '@orchard/authz';
import { ChunkPool, type Codec } from '@orchard/codecs';
import { ApiError } from '@orchard/meta';
import { createRbacEvaluator } from '@orchard/rbac';
import type { ApiServer } from './api-server.js';
import { createServerAudit } from './audit/server-audit.js';
import { createServerAuthentication } from './authentication/server-authentication.js';
import type { AuthorizerGauge } from './authorization/configured-authorizers.js';
import { buildOffers, defaultCodecs, type ResponseConversion } from './codecs.js';
import { resolveFeatureGates } from './feature-gates.js';
import { createFilterChain } from './filters/chain.js';
import { WritePipeline } from './handlers/write-pipeline.js';
import { defaultWriteSteps } from './handlers/write-steps.js';
import { addStandardChecks } from './health/checks.js';
import { createHealthChecks } from './health/health.js';
import { installLifecycle } from './lifecycle/lifecycle.js';
import { createListener } from './listener.js';
import { installMetrics } from './metrics/install.js';
import { registerPlainGauge } from './metrics/plain-gauges.js';
import { registerCacheMetrics } from './metrics/storage-metrics.js';
import { nodeRestrictionStep } from './node/node-restriction.js';
import { type ApiServerOptions, defaultApiServerOptions } from './options.js';
import { rbacEscalationStep } from './rbac/escalation-step.js';
import { rbacGroup } from './rbac/rbac-resources.js';
import { builtinResources } from './registry/builtin/index.js';
import { createResourceRegistry } from './registry/registry.js';
import { createRequestHandler } from './request/request-handler.js';
import { ListSectionCache } from './response/list-section-cache.js';
import { route } from './router.js';
import { authorizesNodes, resolveAuthorizer, startServerAuthorization } from './server-authorization.js';
import { addStartUpHooks, runStartUp } from './server-start-up.js';
import { createServerStorage } from './server-storage.js';
import { installServiceAllocation } from './services/service-allocation.js';
import type { ServerState } from './state.js';
import { createCompactor } from './storage/compactor.js';
import { validateEmulatedRelease } from './versions/release.js';
import { servedResources } from './versions/served.js';

export type { ApiServer } from './api-server.js';
export type { ServerAuthorization } from './server-authorization.js';

/**
 * Creates the reference API server: the composition root. Storage (`server-storage.ts`), the
 * authorizers (`server-authorization.ts`), the start-up work (`server-start-up.ts`) and the request
 * handler (`request/request-handler.ts`) are built here; every request runs the filter chain
 * (`filters/chain.ts`: authentication → audit → limits → impersonation → authorization → admission)
 * and then the router (`router.ts`), which serves resources from the registry, discovery, health and OpenAPI.
 */
export function createApiServer(input: Partial<ApiServerOptions> = {}): ApiServer {
  const options: ApiServerOptions = { ...defaultApiServerOptions, ...input };
  // Unknown gate names fail at start, as upstream's --feature-gates does.
  resolveFeatureGates(options.featureGates ?? {});
  const flavor = options.flavor;
  const metrics = installMetrics(options);
  const { store, ownsStore, objects, watchCaches } = createServerStorage(options, metrics);
  const rbac = createRbacEvaluator();
  const nodeGraph = createNodeGraph();
  const closingController = new AbortController();
  const authorizerGauges: AuthorizerGauge[] = [];
  const authorizer = resolveAuthorizer(options, rbac, nodeGraph, closingController.signal, authorizerGauges);
  if (metrics)
    for (const g of authorizerGauges)
      registerPlainGauge(metrics, g.gauge, g.labelNames, { stabilityLevel: 'ALPHA' });
  const registry = createResourceRegistry(
    servedResources(
      options.builtinResources ? builtinResources(flavor, () => authorizer) : [],
      options.resources,
      {
        runtimeConfig: options.runtimeConfig,
        release: validateEmulatedRelease(options.emulatedRelease),
        flavor,
      },
    ),
  );
  if (metrics) registerCacheMetrics(metrics, watchCaches, registry);
  const codecs: Codec[] = [...(options.codecs ?? defaultCodecs(flavor, options.featureGates))];
  const conversions: ResponseConversion[] = [...options.responseConversions];
  // Aborted when close() begins: /readyz fails from then on, while requests are still served for
  // `shutdownDelaySeconds` (upstream `--shutdown-delay-duration`) so load balancers can drain.
  const drainingController = new AbortController();
  const health = createHealthChecks({ livezGracePeriodMs: options.livezGracePeriodMs });
  addStandardChecks(health, store, drainingController.signal);
  addStartUpHooks(health, { flavor, registry });
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
    chunkPool: new ChunkPool(),
    listSections: new ListSectionCache(),
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
  const ready = runStartUp(state);
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
  const chain = createFilterChain(
    { options, authentication, authorizer, requestAuthorizer, audit, nodeRestriction },
    route,
  );
  const handle = createRequestHandler({ state, chain, audit, ready });

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
      // Watches end cleanly (closing aborts them); requests in flight finish and get their answer,
      // for at most the request timeout, as upstream drains before its listener stops.
      closingController.abort();
      await listener.close(options.requestTimeoutMs);
      await compactor.stop();
      await watchCaches.stop();
      await lifecycle.stop();
      await audit?.writer.close();
      if (ownsStore) await store.close();
    },
  };
}

export { ApiError };
