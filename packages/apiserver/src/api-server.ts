import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Codec } from '@orchard/codecs';
import type { Store } from '@orchard/store';
import type { ServerAuthentication } from './authentication/server-authentication.js';
import type { ResponseConversion } from './codecs.js';
import type { CustomResourceConverter } from './crd/conversion.js';
import type { WritePipeline } from './handlers/write-pipeline.js';
import type { HealthChecks } from './health/health.js';
import type { Lifecycle } from './lifecycle/lifecycle.js';
import type { ApiServerOptions } from './options.js';
import type { ResourceRegistry } from './registry/registry.js';
import type { ServerAuthorization } from './server-authorization.js';
import type { ObjectStore } from './storage/object-store.js';
import type { WatchCaches } from './storage/watch-caches.js';

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
