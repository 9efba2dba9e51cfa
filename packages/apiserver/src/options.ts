import type { UnionAuthenticator } from '@orchard/authn';
import type { AuthorizationMode, Authorizer } from '@orchard/authz';
import type { Codec } from '@orchard/codecs';
import type { Flavor } from '@orchard/meta';
import { orchFlavor } from '@orchard/meta';
import type { Store } from '@orchard/store';
import type { ResourceTransformers } from '@orchard/store-encryption';
import type { AuditOptions } from './audit/server-audit.js';
import type { AuthenticationOptions } from './authentication/authentication-options.js';
import type { ResponseConversion } from './codecs.js';
import type { LeaderElectionOptions } from './controllers/leader-election.js';
import type { NodeLifecycleSettings } from './controllers/node-lifecycle.js';
import type { FeatureGateOverrides } from './feature-gates.js';
import type { ResourceDefinition, UserInfo } from './registry/resource.js';
import type { RequestLog } from './request/request-log.js';
import {
  partialObjectMetadataConversion,
  partialObjectMetadataListConversion,
  tableResponseConversion,
} from './response/table.js';
import { defaultServiceClusterIpRange, defaultServiceNodePortRange } from './services/ip-range.js';
import type { CompactorTimers } from './storage/compactor.js';
import type { WatchCacheSettings } from './storage/watch-caches.js';
import type { RuntimeConfig } from './versions/runtime-config.js';

/** PEM material for HTTPS and client-certificate authentication. */
export interface TlsOptions {
  /** Serving certificate chain (PEM). */
  readonly cert: string;
  /** Serving private key (PEM). */
  readonly key: string;
  /** CA bundle (PEM) that client certificates must chain to (`--client-ca-file`); without it no client is authenticated by certificate. */
  readonly clientCa?: string;
  /**
   * CA bundle (PEM) of the authenticating proxy's client certificate (`--requestheader-client-ca-file`);
   * turns the request-header method on. Certificates of this CA are never users themselves.
   */
  readonly requestHeaderClientCa?: string;
}

/** Where the server writes its log lines. */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Options of `createApiServer()`. Every field has a default in `defaultApiServerOptions`. */
export interface ApiServerOptions {
  /** Identity token of the API (`orch` default, or `kubernetes` for stock clients). Default: `orchFlavor`. */
  readonly flavor: Flavor;
  /** The storage backend. Default: a new in-memory store (`createMemoryStore()`). */
  readonly store?: Store;
  /**
   * Encryption at rest (`--encryption-provider-config`): the per-resource transformers of an
   * EncryptionConfiguration, applied by wrapping `store` (any backend). Default: none, values are
   * stored as they are.
   */
  readonly encryption?: ResourceTransformers;
  /**
   * Maximum request body size in bytes; larger bodies get 413 RequestEntityTooLarge.
   * Default 3 MiB, upstream's `--max-request-bytes`-derived JSON limit (3 * 1024 * 1024).
   */
  readonly maxRequestBodyBytes: number;
  /** HTTPS material. Without it the server speaks plain HTTP and treats every request as the admin (`--insecure-http`). */
  readonly tls?: TlsOptions;
  /**
   * Whether requests without an authenticated identity are served as the admin. Default: true
   * without `tls` (insecure loopback mode), false with `tls` (401 Unauthorized).
   */
  readonly anonymousIsAdmin?: boolean;
  /** The identity of every request in insecure mode. Default: `admin` in `system:masters`. */
  readonly insecureUser: UserInfo;
  /**
   * The authentication methods (doc 2 §5): static tokens, bootstrap tokens, service-account tokens,
   * OIDC, the authenticating proxy, anonymous. Client certificates are on whenever `tls.clientCa` is
   * set. Default: certificates and anonymous only. Ignored when `authenticator` is given or in
   * insecure mode.
   */
  readonly authentication?: AuthenticationOptions;
  /**
   * Replaces the whole authentication (an `@orchard/authn` union). Default: built from
   * `authentication`, or every request is `insecureUser` when `anonymousIsAdmin` (default: without `tls`).
   */
  readonly authenticator?: UnionAuthenticator;
  /**
   * Whether an authenticated request may proceed (the authorization filter), used as given (no
   * `system:masters` bypass is added). Default: the chain of `authorizationModes` behind the
   * `system:masters` bypass.
   */
  readonly authorizer?: Authorizer;
  /**
   * `--authorization-mode` (spec doc 2 §5.3): the modes of the chain, in order (`AlwaysAllow`,
   * `AlwaysDeny`, `Node`, `RBAC`, `ABAC`, `Webhook`). Default `['Node', 'RBAC']`: denied
   * by default, node agents limited to their node's objects, the default roles open health,
   * `/version`, discovery and self reviews.
   */
  readonly authorizationModes: readonly AuthorizationMode[];
  /** `--authorization-policy-file`: the ABAC policy file (one JSON object per line); needs mode `ABAC`. */
  readonly authorizationPolicyFile?: string;
  /**
   * NodeRestriction admission (spec doc 2 §5.3): node agents write only their own Node, Lease, mirror
   * pods and pod status. Default: on when `authorizationModes` holds `Node`.
   */
  readonly nodeRestriction?: boolean;
  /**
   * `--authorization-webhook-*` (mode `Webhook` of `authorizationModes`): the webhook's kubeconfig,
   * the SubjectAccessReview version (default `v1beta1`) and the answer caches (default 5 min / 30 s).
   */
  readonly authorizationWebhook?: AuthorizationWebhookFlags;
  /**
   * `--authorization-config` (doc 2 §2.6): an AuthorizationConfiguration file, reloaded on change and
   * every 60 s; replaces `authorizationModes` and `authorizationWebhook` (the CLI refuses both).
   */
  readonly authorizationConfigFile?: string;
  /** Resource types served in addition to (or, with `builtinResources: false`, instead of) the built-ins. */
  readonly resources: readonly ResourceDefinition[];
  /** Serve the built-in types (namespaces, configmaps, secrets, serviceaccounts, events, leases). Default: true. */
  readonly builtinResources: boolean;
  /** Wire codecs, in preference order. Default (undefined): JSON, YAML and the flavor's Protobuf (`defaultCodecs(flavor)`). */
  readonly codecs?: readonly Codec[];
  /** Response conversions chosen by Accept parameters. Default: Table, PartialObjectMetadata(List). */
  readonly responseConversions: readonly ResponseConversion[];
  /**
   * Watches without `timeoutSeconds` end after a random time in [min, 2·min), as upstream's
   * `--min-request-timeout` (default 1800 s) does, so clients rebalance.
   */
  readonly minRequestTimeoutSeconds: number;
  /**
   * On `close()`, `/readyz` fails at once but requests are served for this many more seconds
   * before watches end and the listener closes (upstream `--shutdown-delay-duration`, default 0).
   */
  readonly shutdownDelaySeconds: number;
  /** Create the flavor's default namespaces at start. Default: true. */
  readonly createDefaultNamespaces: boolean;
  /**
   * The CA bundle (PEM) that verifies this server, published in every namespace as the flavor's
   * root-CA ConfigMap (`kube-root-ca.crt`), as upstream's root-CA publisher (a controller-manager
   * loop) does for pods. Default: none, nothing published (a bare API server, as test environments
   * run it). One publisher per cluster: servers sharing a store must publish the same bundle.
   */
  readonly rootCaBundle?: string;
  /**
   * The watch cache in front of the store for get/list/watch, one per resource (`WatchCacheSettings`:
   * `windowMs` = history retained, spec doc 1 §8, 5 minutes, CLI `--watch-window`; `maxEvents`;
   * `tooLargeWaitMs`, 3 s before 504; `bookmarkIntervalMs`, 60 s; `watcherBufferSize`, 1024). Default: {}.
   */
  readonly watchCache: Partial<WatchCacheSettings>;
  /** Continue token lifetime (spec doc 1 §8: 5 minutes; CLI `--continue-ttl`). Default 300 000 ms. */
  readonly continueTtlMs: number;
  /**
   * HMAC key that signs continue tokens. Default (undefined): 32 random bytes per server, so tokens
   * die with the process; a durable server passes a key kept beside its data so a token handed out
   * before a restart still continues its list.
   */
  readonly continueTokenKey?: Uint8Array;
  /**
   * Store compaction interval (upstream `--etcd-compaction-interval`, default 5 minutes; CLI
   * `--compaction-interval`; 0 disables). Each tick compacts the store to the revision seen at the
   * previous tick (or an older tick, so at least `watchCache.windowMs` of history stays), bounding
   * the store's memory under endless writes. Default 300 000 ms.
   */
  readonly compactionIntervalMs: number;
  /** Clock and timer of the compactor. Default (undefined): `Date.now` and `setInterval`; tests pass a fake. */
  readonly compactionTimers?: CompactorTimers;
  /**
   * Feature gates switched away from their defaults (`--feature-gates Name=true,...`); see
   * `knownFeatureGates` for the names and upstream defaults. Default: {} (every gate at its default).
   */
  readonly featureGates: FeatureGateOverrides;
  /**
   * `--runtime-config`: switches group versions and resources on or off (spec doc 1 §9.2), parsed
   * with `parseRuntimeConfig`. Default: [] (stable versions and betas introduced before 1.22 on,
   * alpha off, versions removed at `emulatedRelease` off).
   */
  readonly runtimeConfig: RuntimeConfig;
  /**
   * Deadline of one CRD conversion webhook call (upstream's fixed 30 s); a call past it fails the
   * request with a 500 Status naming the webhook. Default 30 000 ms.
   */
  readonly conversionWebhookTimeoutMs: number;
  /**
   * `--emulated-release`: the release whose served, deprecated and removed versions the server
   * follows (spec doc 1 §9.3–9.4), between 1.16 and 1.32. Default '1.32'.
   */
  readonly emulatedRelease: string;
  /**
   * Run the in-process lifecycle controllers (namespace controller, garbage collector). Default: true.
   * Without them, terminating namespaces and owner-reference cascades stay pending.
   */
  readonly lifecycleControllers: boolean;
  /**
   * Run the cluster-wide controllers (namespace controller, garbage collector, default service
   * accounts, root-CA publisher, bootstrap token cleaner and signer) only while this server holds
   * the controllers' Lease (`<system namespace>/<prefix>-controller-manager`, coordination group),
   * as upstream's `--leader-elect` (CLI default true): needed when several servers share one store.
   * `identity` is unique per server (`<hostname>_<uuid>`); the timings default to upstream's 15 s /
   * 10 s / 2 s. Default: undefined (no election: this server is the only one and always leads).
   */
  readonly leaderElection?: Partial<LeaderElectionOptions> & { readonly identity: string };
  /**
   * Most non-mutating requests served at once (upstream `--max-requests-inflight`, default 400; 0 =
   * no limit). Beyond it: 429 TooManyRequests with `Retry-After: 1`. Long-running requests (watches)
   * and `system:masters` are not limited, as upstream.
   */
  readonly maxRequestsInflight: number;
  /** Most mutating requests (POST, PUT, PATCH, DELETE) served at once (upstream `--max-mutating-requests-inflight`, default 200; 0 = no limit). */
  readonly maxMutatingRequestsInflight: number;
  /**
   * Longest a non-long-running request may take before it is answered 504 Timeout (upstream
   * `--request-timeout`, default 60 s); a request's `?timeout=` may only shorten it. Also the time a
   * client has to send the whole request (headers and body) before a 408.
   */
  readonly requestTimeoutMs: number;
  /** Time a client has to send the request headers before a 408 (upstream's ReadHeaderTimeout, 32 s). */
  readonly requestHeaderTimeoutMs: number;
  /** Most watches one user may hold open at once (429 beyond; 0 = no limit). Default 2000. */
  readonly maxWatchesPerUser: number;
  /**
   * Bytes a watch response may have queued for a client that does not read before the watch is
   * closed (the client resumes from its last resourceVersion). Default 16 MiB.
   */
  readonly maxWatchBufferBytes: number;
  /**
   * The CIDR Service cluster IPs are allocated from (upstream `--service-cluster-ip-range`; without
   * the flag upstream's kube-apiserver uses `10.0.0.0/24`, and so does this default). One IPv4 or
   * IPv6 CIDR, at most 20 host bits. The first address is kept for the `kubernetes` Service.
   */
  readonly serviceClusterIpRange: string;
  /** Node ports are allocated from this range (upstream `--service-node-port-range`, default `30000-32767`). */
  readonly serviceNodePortRange: string;
  /**
   * How often the Service allocation repair runs (upstream's repair loops: 3 minutes); a value
   * taken but held by no Service is freed when two passes in a row find it. 0 = only at start.
   */
  readonly serviceAllocationRepairIntervalMs: number;
  /**
   * Serve `/metrics` (Prometheus text format, one registry per server) and keep the request and
   * storage metrics. Default: true.
   */
  readonly metrics: boolean;
  /**
   * `--show-hidden-metrics-for-version`: the previous minor release (`1.31`), showing metrics whose
   * deprecation window has passed (spec doc 1 §9.3). Default: undefined (hidden metrics stay hidden).
   */
  readonly showHiddenMetricsForVersion?: string;
  /**
   * Audit logging (`--audit-policy-file`, `--audit-log-path`, `--audit-log-maxsize`,
   * `--audit-log-maxbackup`). Default: undefined (no audit log).
   */
  readonly audit?: AuditOptions;
  /**
   * `--livez-grace-period`: for this long after start, `/livez` answers 200 even while checks
   * (post-start hooks still running) fail, so a slow start is not taken for a dead server. Default 0.
   */
  readonly livezGracePeriodMs: number;
  /**
   * Every ReplicaSet's status reports its replicas ready and available (CLI
   * `--simulate-replica-readiness`). The server runs no pods; with this, Deployment rollouts
   * complete (`kubectl rollout status` returns), for tests of controllers that wait on rollouts.
   * Default false: ReplicaSets report no replicas and rollouts wait, as on a cluster without nodes.
   */
  readonly simulateReplicaReadiness: boolean;
  /**
   * Run the Deployment → ReplicaSet controller (kube-controller-manager's, not the API server's).
   * Default false: `createApiServer`/`startTestServer` are a bare API server, as envtest runs one,
   * so a test's own controller owns Deployment status; the CLI turns it on, as a cluster's
   * controller manager would.
   */
  readonly deploymentController: boolean;
  /**
   * Run the node lifecycle controller (kube-controller-manager's node health monitor): a node whose
   * Lease and Ready heartbeat stay unchanged past the grace period gets its conditions set Unknown.
   * Undefined (the default) leaves it off, as in a bare API server; the CLI turns it on.
   */
  readonly nodeLifecycle?: Partial<NodeLifecycleSettings>;
  readonly logger: Logger;
  /**
   * One record per finished request (upstream's httplog, the CLI's `-v 2`). Default none: nothing is
   * done per request.
   */
  readonly requestLog?: RequestLog;
}

const silentLogger: Logger = Object.freeze({
  info: () => {},
  error: (message: string, error?: unknown) => {
    console.error(`orchard-apiserver: ${message}`, error instanceof Error ? error.stack : (error ?? ''));
  },
});

/** The `--authorization-webhook-*` flags (the legacy form of one webhook authorizer). */
export interface AuthorizationWebhookFlags {
  /** `--authorization-webhook-config-file`: a kubeconfig naming the webhook. */
  readonly configFile: string;
  /** `--authorization-webhook-version`. Default `v1beta1`. */
  readonly version?: 'v1' | 'v1beta1';
  /** `--authorization-webhook-cache-authorized-ttl`, ms. Default 5 min. */
  readonly authorizedTtlMs?: number;
  /** `--authorization-webhook-cache-unauthorized-ttl`, ms. Default 30 s. */
  readonly unauthorizedTtlMs?: number;
}

/** Defaults for every option (a request body limit of 3 MiB, like upstream). */
export const defaultApiServerOptions: Readonly<ApiServerOptions> = Object.freeze({
  flavor: orchFlavor,
  maxRequestBodyBytes: 3 * 1024 * 1024,
  insecureUser: Object.freeze({
    username: 'admin',
    groups: Object.freeze(['system:masters', 'system:authenticated']),
  }),
  resources: Object.freeze([]),
  authorizationModes: Object.freeze(['Node', 'RBAC'] as const),
  builtinResources: true,
  responseConversions: Object.freeze([
    tableResponseConversion,
    partialObjectMetadataConversion,
    partialObjectMetadataListConversion,
  ]),
  minRequestTimeoutSeconds: 1800,
  shutdownDelaySeconds: 0,
  createDefaultNamespaces: true,
  watchCache: Object.freeze({}),
  continueTtlMs: 5 * 60_000,
  compactionIntervalMs: 5 * 60_000,
  featureGates: Object.freeze({}),
  runtimeConfig: Object.freeze([]),
  emulatedRelease: '1.32',
  conversionWebhookTimeoutMs: 30_000,
  lifecycleControllers: true,
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  requestTimeoutMs: 60_000,
  requestHeaderTimeoutMs: 32_000,
  maxWatchesPerUser: 2000,
  maxWatchBufferBytes: 16 * 1024 * 1024,
  serviceClusterIpRange: defaultServiceClusterIpRange,
  serviceNodePortRange: defaultServiceNodePortRange,
  serviceAllocationRepairIntervalMs: 3 * 60_000,
  metrics: true,
  livezGracePeriodMs: 0,
  simulateReplicaReadiness: false,
  deploymentController: false,
  logger: silentLogger,
});
