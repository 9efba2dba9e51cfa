import { join } from 'node:path';
import type { ResourceTransformers } from '@orchard/store-encryption';
import type { LoadedAuthentication } from '../authentication/authentication-flags.js';
import type { LaunchOptions } from '../launch.js';
import type { OpenedStorage } from '../storage/open-storage.js';
import type { CliOptions } from './cli-options.js';
import type { CliLogger } from './logging.js';

/** What the start-up loaded or opened before the server is built from the command line. */
export interface CliStartUp {
  readonly storage: OpenedStorage;
  readonly encryption: ResourceTransformers | undefined;
  /** Undefined in insecure mode (every request is the admin). */
  readonly authn: LoadedAuthentication | undefined;
  /** This server's identity in leader election (only on a shared etcd with `--leader-elect`). */
  readonly leaderIdentity: string | undefined;
  /** The key continue tokens are sealed with (durable storage only: tokens survive a restart). */
  readonly continueTokenKey: Uint8Array | undefined;
  /** The CLI's logger: the server's log, and its request log at `-v 2`. */
  readonly log: CliLogger;
}

/** The `launchApiServer` input for a checked command line and what the start-up loaded. */
export function buildLaunchOptions(cli: CliOptions, loaded: CliStartUp): LaunchOptions {
  const { storage, encryption, authn, leaderIdentity, continueTokenKey, log } = loaded;
  const { leaderElection, maxBody, watchWindowMs, continueTtlMs, compactionIntervalMs } = cli;
  return {
    port: cli.port,
    host: cli.host,
    insecureHttp: cli.insecureHttp,
    tlsSubjectAltNames: cli.tlsSubjectAltNames,
    kubeconfigOut: cli.kubeconfigOut,
    ...(authn?.clientCaPem ? { clientCaPem: authn.clientCaPem } : {}),
    ...(authn?.requestHeaderClientCaPem ? { requestHeaderClientCaPem: authn.requestHeaderClientCaPem } : {}),
    // A durable server keeps its certificates so kubeconfigs survive restarts; memory starts afresh.
    ...(storage.durable ? { tlsDir: join(cli.dataDir, 'tls') } : {}),
    // As a cluster's controller manager: one publisher per cluster, so on a shared etcd only
    // under leader election (the leader publishes the CA that signed its own certificate).
    publishRootCa: cli.backend !== 'etcd' || leaderElection !== undefined,
    server: {
      flavor: cli.flavor,
      store: storage.store,
      ...(encryption ? { encryption } : {}),
      ...(continueTokenKey ? { continueTokenKey } : {}),
      ...(maxBody === undefined ? {} : { maxRequestBodyBytes: maxBody }),
      shutdownDelaySeconds: cli.shutdownDelayMs / 1000,
      ...Object.fromEntries(Object.entries(cli.limits).filter(([, v]) => v !== undefined)),
      ...(watchWindowMs === undefined ? {} : { watchCache: { windowMs: watchWindowMs } }),
      ...(continueTtlMs === undefined ? {} : { continueTtlMs }),
      ...(compactionIntervalMs === undefined ? {} : { compactionIntervalMs }),
      featureGates: cli.featureGates,
      ...cli.observability,
      ...cli.versions,
      ...(leaderElection && leaderIdentity
        ? {
            leaderElection: {
              ...leaderElection,
              identity: leaderIdentity,
            },
          }
        : {}),
      ...cli.serviceRanges,
      simulateReplicaReadiness: cli.simulateReplicaReadiness,
      deploymentController: true,
      // The controller manager's node health monitor, as a cluster runs it.
      nodeLifecycle:
        cli.nodeMonitorGracePeriodMs === undefined ? {} : { gracePeriodMs: cli.nodeMonitorGracePeriodMs },
      ...(authn ? { authentication: authn.authentication } : {}),
      ...cli.authz,
      logger: log,
      // Upstream's httplog: a line per request from -v 2; below, no per-request work at all.
      ...(log.settings.verbosity >= 2 ? { requestLog: (entry) => log.v(2, 'HTTP', { ...entry }) } : {}),
    },
  };
}
