import type { Authorizer } from '@orchard/authz';
import type { ChunkPool, Codec } from '@orchard/codecs';
import type { Flavor } from '@orchard/meta';
import type { Store } from '@orchard/store';
import type { ServerAuthentication } from './authentication/server-authentication.js';
import type { ResponseOffer } from './codecs.js';
import type { CustomResourceConverters } from './crd/conversion.js';
import type { WritePipeline } from './handlers/write-pipeline.js';
import type { HealthChecks } from './health/health.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import type { ApiServerOptions, Logger } from './options.js';
import type { ResourceRegistry } from './registry/registry.js';
import type { ListSectionCache } from './response/list-section-cache.js';
import type { ServiceAllocator } from './services/service-allocator.js';
import type { ObjectStore } from './storage/object-store.js';
import type { WatchCaches } from './storage/watch-caches.js';

/** The shared state of one server instance, read by every handler. */
export interface ServerState {
  readonly flavor: Flavor;
  /** The authentication methods (TokenReview, TokenRequest read them); undefined in insecure mode. */
  readonly authentication: ServerAuthentication | undefined;
  readonly options: ApiServerOptions;
  readonly registry: ResourceRegistry;
  /** Custom resource converters plugged in with `setCustomResourceConverter` (by `group/kind`). */
  readonly converters: CustomResourceConverters;
  readonly store: Store;
  readonly objects: ObjectStore;
  /** The watch caches (one per resource) and the continue-token codec that get/list/watch read through. */
  readonly watchCaches: WatchCaches;
  readonly codecs: readonly Codec[];
  /** The 16 KiB buffers joined list answers are copied into, reused once a response is written. */
  readonly chunkPool: ChunkPool;
  /** The items sections of recent LIST answers, reused when a LIST returns the same objects again. */
  readonly listSections: ListSectionCache;
  /** Response offers for resource requests (codecs × conversions). Recomputed when codecs change. */
  offers: readonly ResponseOffer[];
  readonly writePipeline: WritePipeline;
  /** NodeRestriction admission is on (with the Node authorizer, unless `options.nodeRestriction` says otherwise). */
  readonly nodeRestriction: boolean;
  /** The authorizer chain every request and review is decided by. */
  readonly authorizer: Authorizer;
  readonly health: HealthChecks;
  /** The server's metrics registry and request metrics (`/metrics`); undefined with `metrics: false`. */
  readonly metrics: ServerMetrics | undefined;
  readonly log: Logger;
  /** Cluster IPs and node ports of Services (undefined when `services` is not served). */
  readonly serviceAllocator: ServiceAllocator | undefined;
  /** Aborted when the server begins to shut down: open watches end. */
  readonly closing: AbortSignal;
}
