import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flavorByName } from '@orchard/meta';
import type { ResourceTransformers } from '@orchard/store-encryption';
import {
  authenticationFlagOptions,
  authenticationFlagsUsage,
  type LoadedAuthentication,
  loadAuthenticationFlags,
  normalizeBooleanFlags,
} from './authentication/authentication-flags.js';
import {
  type AuthorizationFlags,
  authorizationFlagOptions,
  readAuthorizationFlags,
} from './authorization/authorization-flags.js';
import {
  leaderElectionFlagOptions,
  leaderElectionFlagsUsage,
  loadLeaderIdentity,
  normalizeLeaderElectFlag,
  parseLeaderElectionFlags,
} from './controllers/leader-election-flags.js';
import { parseDuration } from './duration.js';
import { type FeatureGateOverrides, parseFeatureGates } from './feature-gates.js';
import { isLoopback, type LaunchedServer, launchApiServer } from './launch.js';
import {
  type ObservabilityFlags,
  observabilityFlagOptions,
  observabilityFlagsUsage,
  parseObservabilityFlags,
} from './observability-flags.js';
import { serviceRangeOptions } from './services/ip-range.js';
import { loadOrCreateContinueTokenKey } from './storage/continue-token-key.js';
import { loadEncryptionProviderConfig } from './storage/encryption-provider-config.js';
import {
  type EtcdStorageOptions,
  isStorageBackend,
  type OpenedStorage,
  openStorage,
  parseEtcdServers,
  storageBackends,
} from './storage/open-storage.js';

const usage = `Usage: orchard-apiserver [options]

  --port N               port to listen on (0 = any free port; default 6443)
  --host ADDR            address to bind (default 127.0.0.1); added to the serving certificate's names
  --tls-san NAME         extra DNS name or IP address for the serving certificate (repeatable or
                         comma-separated, e.g. --tls-san api.example.com,10.0.0.5)
  --flavor orch|kubernetes   identifiers of the API (default orch)
  --storage sqlite|memory|etcd  storage backend (default sqlite: durable, in --data-dir; memory: nothing
                         survives a restart; etcd: the cluster of --etcd-servers)
  --etcd-servers URLS    etcd client URLs for --storage etcd, comma-separated (http://127.0.0.1:2379)
  --etcd-prefix P        key prefix in etcd (default /registry)
  --etcd-cafile F        CA bundle (PEM) that etcd's serving certificate chains to (https URLs)
  --etcd-certfile F      client certificate (PEM) presented to etcd
  --etcd-keyfile F       its private key (PEM)
  --encryption-provider-config FILE  EncryptionConfiguration (apiserver.config.<domain>/v1): which
                         resources are encrypted at rest, with aesgcm, aescbc, secretbox or identity;
                         the first provider writes, all read (rotation by order)
  --data-dir DIR         where the database, the generated certificates (reused on restart, so old
                         kubeconfigs stay valid) and the kubeconfig live (default .orchard)
  --insecure-http        plain HTTP on loopback; every request is the admin (refused with a
                         non-loopback --host)
  --kubeconfig-out PATH  where to write the admin kubeconfig (default <data-dir>/admin.kubeconfig)
  --max-body-bytes N     request body limit in bytes (default 3145728)
  --shutdown-delay-duration D  on SIGINT/SIGTERM, fail /readyz and keep serving for D (e.g. 5s; default 0s)
  --watch-window D       watch history retained, e.g. 2s, 5m (default 5m)
  --continue-ttl D       lifetime of list continue tokens, e.g. 30s (default 5m)
  --compaction-interval D  compact the store every D to the revision of the previous tick, keeping
                         at least the watch window of history (default 5m; 0 disables)
  --feature-gates LIST   feature gates, e.g. AllowUnsafeMalformedObjectDeletion=true,Other=false
  --max-requests-inflight N           non-mutating requests served at once (default 400; 0 = no limit)
  --max-mutating-requests-inflight N  mutating requests served at once (default 200; 0 = no limit)
  --request-timeout D    answer 504 to a request still running after D (default 1m0s; watches exempt)
  --max-watches-per-user N  open watches one user may hold (default 2000; 0 = no limit)
  --service-cluster-ip-range CIDR  Service cluster IPs are allocated from it (default 10.0.0.0/24,
                         upstream kube-apiserver's; one IPv4 or IPv6 CIDR, at most 20 host bits)
  --service-node-port-range RANGE  NodePort/LoadBalancer node ports (default 30000-32767)
  --simulate-replica-readiness  ReplicaSets report their replicas ready and available (no pods run),
                         so Deployment rollouts complete; for tests (default off: rollouts wait)
  --authorization-mode LIST  ordered authorizers: AlwaysAllow, AlwaysDeny, Node, RBAC, ABAC, Webhook
                         (default Node,RBAC); system:masters (the admin) always passes; with Node,
                         NodeRestriction admission limits what nodes write
  --authorization-policy-file PATH  ABAC policy, one JSON object per line (needs mode ABAC)
  --authorization-webhook-config-file PATH  kubeconfig of the SubjectAccessReview webhook (mode Webhook)
  --authorization-webhook-version v1|v1beta1  SubjectAccessReview version sent (default v1beta1)
  --authorization-webhook-cache-authorized-ttl D    reuse "allowed" answers for D (default 5m0s)
  --authorization-webhook-cache-unauthorized-ttl D  reuse other answers for D (default 30s)
  --authorization-config PATH  AuthorizationConfiguration (named authorizers, webhooks with match
                         conditions), reloaded on change and every 60s; excludes --authorization-mode
                         and --authorization-webhook-*
  -h, --help             this text

${leaderElectionFlagsUsage}

${observabilityFlagsUsage}

${authenticationFlagsUsage}`;

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: normalizeLeaderElectFlag(normalizeBooleanFlags(argv)),
      options: {
        port: { type: 'string', default: '6443' },
        host: { type: 'string', default: '127.0.0.1' },
        'tls-san': { type: 'string', multiple: true },
        flavor: { type: 'string', default: 'orch' },
        storage: { type: 'string', default: 'sqlite' },
        'data-dir': { type: 'string', default: '.orchard' },
        'etcd-servers': { type: 'string' },
        'etcd-prefix': { type: 'string' },
        'etcd-cafile': { type: 'string' },
        'etcd-certfile': { type: 'string' },
        'etcd-keyfile': { type: 'string' },
        'encryption-provider-config': { type: 'string' },
        'insecure-http': { type: 'boolean', default: false },
        'kubeconfig-out': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'shutdown-delay-duration': { type: 'string', default: '0s' },
        'watch-window': { type: 'string' },
        'continue-ttl': { type: 'string' },
        'compaction-interval': { type: 'string' },
        'feature-gates': { type: 'string' },
        'max-requests-inflight': { type: 'string' },
        'max-mutating-requests-inflight': { type: 'string' },
        'request-timeout': { type: 'string' },
        'max-watches-per-user': { type: 'string' },
        'service-cluster-ip-range': { type: 'string' },
        'service-node-port-range': { type: 'string' },
        'simulate-replica-readiness': { type: 'boolean', default: false },
        'authorization-mode': { type: 'string' },
        'authorization-policy-file': { type: 'string' },
        ...authorizationFlagOptions,
        help: { type: 'boolean', short: 'h', default: false },
        ...leaderElectionFlagOptions,
        ...observabilityFlagOptions,
        ...authenticationFlagOptions,
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const fail = (msg: string): never => {
    process.stderr.write(`orchard-apiserver: ${msg}\n`);
    process.exit(2);
  };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --port ${String(values.port)}`);
  let flavor: ReturnType<typeof flavorByName>;
  try {
    flavor = flavorByName(String(values.flavor));
  } catch (e) {
    return fail((e as Error).message);
  }
  const backend = String(values.storage);
  if (!isStorageBackend(backend))
    return fail(`unsupported --storage ${backend} (available: ${storageBackends.join(', ')})`);
  const dataDir = resolve(String(values['data-dir']));
  let etcd: EtcdStorageOptions | undefined;
  if (backend === 'etcd') {
    if (typeof values['etcd-servers'] !== 'string') return fail('--storage etcd needs --etcd-servers');
    try {
      etcd = { servers: parseEtcdServers(values['etcd-servers']) };
    } catch (e) {
      return fail(`invalid --etcd-servers: ${(e as Error).message}`);
    }
    const prefix = values['etcd-prefix'];
    if (typeof prefix === 'string' && !prefix.startsWith('/'))
      return fail(`invalid --etcd-prefix ${prefix}: must start with /`);
    const file = (flag: string) => (typeof values[flag] === 'string' ? resolve(values[flag]) : undefined);
    etcd = {
      ...etcd,
      ...(typeof prefix === 'string' ? { prefix: prefix.replace(/\/+$/, '') || '/' } : {}),
      ...(file('etcd-cafile') ? { caFile: file('etcd-cafile') } : {}),
      ...(file('etcd-certfile') ? { certFile: file('etcd-certfile') } : {}),
      ...(file('etcd-keyfile') ? { keyFile: file('etcd-keyfile') } : {}),
    };
  } else {
    const stray = ['etcd-servers', 'etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile'].find(
      (f) => values[f] !== undefined,
    );
    if (stray) return fail(`--${stray} applies to --storage etcd only`);
  }
  const maxBody = values['max-body-bytes'] === undefined ? undefined : Number(values['max-body-bytes']);
  if (maxBody !== undefined && (!Number.isInteger(maxBody) || maxBody <= 0))
    fail(`invalid --max-body-bytes ${String(values['max-body-bytes'])}`);
  const host = String(values.host);
  // Plain HTTP makes every caller the admin: only ever on this machine.
  if (values['insecure-http'] === true && !isLoopback(host))
    fail(
      `--insecure-http serves every request as the admin and is refused on the non-loopback address ${host}`,
    );
  let featureGates: FeatureGateOverrides = {};
  try {
    if (typeof values['feature-gates'] === 'string')
      featureGates = parseFeatureGates(values['feature-gates']);
  } catch (e) {
    return fail(`invalid argument for --feature-gates: ${(e as Error).message}`);
  }
  let leaderElection: ReturnType<typeof parseLeaderElectionFlags>;
  let observability: ObservabilityFlags;
  try {
    leaderElection = parseLeaderElectionFlags(values);
    observability = parseObservabilityFlags(values, flavor);
  } catch (e) {
    return fail((e as Error).message);
  }
  const duration = (flag: string): number | undefined => {
    const v = values[flag];
    if (typeof v !== 'string') return undefined;
    try {
      const ms = parseDuration(v);
      if (ms <= 0) throw new Error('must be positive');
      return ms;
    } catch (e) {
      return fail(`invalid --${flag} ${v}: ${(e as Error).message}`);
    }
  };
  const count = (flag: string): number | undefined => {
    const v = values[flag];
    if (typeof v !== 'string') return undefined;
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n))
      return fail(`invalid --${flag} ${v}: must be a non-negative integer`);
    return n;
  };
  let shutdownDelayMs = 0;
  try {
    shutdownDelayMs = parseDuration(String(values['shutdown-delay-duration']));
  } catch (e) {
    fail(
      `invalid --shutdown-delay-duration ${String(values['shutdown-delay-duration'])}: ${(e as Error).message}`,
    );
  }
  const limits = {
    maxRequestsInflight: count('max-requests-inflight'),
    maxMutatingRequestsInflight: count('max-mutating-requests-inflight'),
    maxWatchesPerUser: count('max-watches-per-user'),
    requestTimeoutMs: duration('request-timeout'),
  };
  const watchWindowMs = duration('watch-window');
  const continueTtlMs = duration('continue-ttl');
  const compactionInterval = values['compaction-interval'];
  let compactionIntervalMs: number | undefined;
  if (typeof compactionInterval === 'string') {
    try {
      compactionIntervalMs = parseDuration(compactionInterval);
    } catch (e) {
      return fail(`invalid --compaction-interval ${compactionInterval}: ${(e as Error).message}`);
    }
  }
  let serviceRanges: ReturnType<typeof serviceRangeOptions> = {};
  try {
    serviceRanges = serviceRangeOptions(
      values['service-cluster-ip-range'],
      values['service-node-port-range'],
    );
  } catch (e) {
    return fail((e as Error).message);
  }
  let authz: AuthorizationFlags;
  try {
    authz = readAuthorizationFlags(values, flavor);
  } catch (e) {
    return fail((e as Error).message);
  }
  const kubeconfigOut = resolve(
    typeof values['kubeconfig-out'] === 'string'
      ? values['kubeconfig-out']
      : join(dataDir, 'admin.kubeconfig'),
  );
  const info = (m: string) => process.stderr.write(`${m}\n`);
  // Before anything touches the data directory: a bad file stops the start with nothing written.
  let encryption: ResourceTransformers | undefined;
  if (typeof values['encryption-provider-config'] === 'string') {
    try {
      encryption = loadEncryptionProviderConfig(resolve(values['encryption-provider-config']), flavor);
    } catch (e) {
      return fail((e as Error).message);
    }
  }
  // In insecure mode every request is the admin: no authentication flags apply. Bad flags or files
  // stop the start before storage is opened.
  let authn: LoadedAuthentication | undefined;
  if (values['insecure-http'] !== true) {
    try {
      authn = await loadAuthenticationFlags(values, { flavor, stateDir: dataDir, featureGates });
      authn.authenticationConfig?.start();
    } catch (e) {
      return fail((e as Error).message);
    }
  }
  // Storage first: a data directory held by another server, or a corrupt database, stops the start
  // before anything in the directory (certificates, kubeconfig) is touched.
  let storage: OpenedStorage;
  try {
    storage = await openStorage({ backend, dataDir, ...(etcd ? { etcd } : {}) });
  } catch (e) {
    return startFailed(e);
  }
  info(`storage: ${storage.description}`);
  for (const rule of encryption?.describe() ?? []) info(`encryption at rest: ${rule}`);
  let launched: LaunchedServer;
  try {
    // SQLite and memory stores have one server (the data directory is locked), which leads
    // without a Lease; several servers share only an etcd.
    const leaderIdentity =
      leaderElection && backend === 'etcd' ? await loadLeaderIdentity(dataDir) : undefined;
    if (leaderIdentity) info(`leader election: this server is ${leaderIdentity}`);
    launched = await launchApiServer({
      port,
      host,
      insecureHttp: values['insecure-http'] === true,
      tlsSubjectAltNames: parseTlsSans(values['tls-san']),
      kubeconfigOut,
      ...(authn?.clientCaPem ? { clientCaPem: authn.clientCaPem } : {}),
      ...(authn?.requestHeaderClientCaPem
        ? { requestHeaderClientCaPem: authn.requestHeaderClientCaPem }
        : {}),
      // A durable server keeps its certificates so kubeconfigs survive restarts; memory starts afresh.
      ...(storage.durable ? { tlsDir: join(dataDir, 'tls') } : {}),
      // As a cluster's controller manager: one publisher per cluster, so on a shared etcd only
      // under leader election (the leader publishes the CA that signed its own certificate).
      publishRootCa: backend !== 'etcd' || leaderElection !== undefined,
      server: {
        flavor,
        store: storage.store,
        ...(encryption ? { encryption } : {}),
        ...(storage.durable ? { continueTokenKey: await loadOrCreateContinueTokenKey(dataDir) } : {}),
        ...(maxBody === undefined ? {} : { maxRequestBodyBytes: maxBody }),
        shutdownDelaySeconds: shutdownDelayMs / 1000,
        ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
        ...(watchWindowMs === undefined ? {} : { watchCache: { windowMs: watchWindowMs } }),
        ...(continueTtlMs === undefined ? {} : { continueTtlMs }),
        ...(compactionIntervalMs === undefined ? {} : { compactionIntervalMs }),
        featureGates,
        ...observability,
        ...(leaderElection && leaderIdentity
          ? {
              leaderElection: {
                ...leaderElection,
                identity: leaderIdentity,
              },
            }
          : {}),
        ...serviceRanges,
        simulateReplicaReadiness: values['simulate-replica-readiness'] === true,
        deploymentController: true,
        ...(authn ? { authentication: authn.authentication } : {}),
        ...authz,
        logger: {
          info: (m) => process.stderr.write(`${m}\n`),
          error: (m, e) =>
            process.stderr.write(
              `error: ${m}: ${e instanceof Error ? (e.stack ?? e.message) : String(e ?? '')}\n`,
            ),
        },
      },
    });
  } catch (e) {
    await storage.store.close().catch(() => undefined);
    return startFailed(e);
  }
  if (launched.tlsDir)
    info(
      `certificates in ${join(dataDir, 'tls')}: CA ${launched.tlsDir.ca}, serving ${launched.tlsDir.serving}, admin ${launched.tlsDir.admin}`,
    );
  for (const note of authn?.notes ?? []) info(note);
  process.stdout.write(
    `authentication: ${launched.server.authentication?.methods.join(', ') ?? 'none (insecure HTTP: every request is the admin)'}\n`,
  );
  process.stdout.write(`listening on ${launched.url}\n`);
  process.stdout.write(`kubeconfig written to ${kubeconfigOut}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`received ${signal}, shutting down\n`);
    launched
      .stop()
      .then(() => storage.store.close())
      .then(
        () => process.exit(0),
        (e) => {
          process.stderr.write(`shutdown failed: ${String(e)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** A start-up error (storage, certificates, listening): one line naming what failed, exit status 1. */
function startFailed(e: unknown): never {
  process.stderr.write(`orchard-apiserver: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}

/** `--tls-san` values: repeated flags and comma-separated lists alike. */
export function parseTlsSans(values: unknown): string[] {
  const list = Array.isArray(values) ? values : typeof values === 'string' ? [values] : [];
  return list
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const invokedDirectly = process.argv[1] !== undefined && /cli\.(ts|js|mjs)$/.test(process.argv[1]);
if (invokedDirectly) {
  main().catch((e) => {
    process.stderr.write(`orchard-apiserver: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
