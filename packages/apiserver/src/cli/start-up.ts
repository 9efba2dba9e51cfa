import { resolve } from 'node:path';
import type { ResourceTransformers } from '@orchard/store-encryption';
import {
  type LoadedAuthentication,
  loadAuthenticationFlags,
} from '../authentication/authentication-flags.js';
import { loadLeaderIdentity } from '../controllers/leader-election-flags.js';
import { type LaunchedServer, launchApiServer } from '../launch.js';
import { loadOrCreateContinueTokenKey } from '../storage/continue-token-key.js';
import { loadEncryptionProviderConfig } from '../storage/encryption-provider-config.js';
import { type OpenedStorage, openStorage } from '../storage/open-storage.js';
import type { CliOptions } from './cli-options.js';
import type { CliFlagValues } from './flags.js';
import { buildLaunchOptions } from './launch-options.js';
import type { CliLogger } from './logging.js';

/** A server the command line started, with what `stop` and the banner need. */
export interface CliServer {
  readonly launched: LaunchedServer;
  readonly storage: OpenedStorage;
  readonly authn: LoadedAuthentication | undefined;
}

/**
 * Starts the server of a checked command line: the files the flags name (encryption, authentication),
 * then storage, then the server itself. A bad file calls `fail` (exit 2) before anything is written;
 * a storage or listen failure calls `startFailed` (exit 1), after closing a store it opened.
 */
export async function startFromCommandLine(
  values: CliFlagValues,
  cli: CliOptions,
  log: CliLogger,
  fail: (msg: string) => never,
  startFailed: (e: unknown) => never,
): Promise<CliServer> {
  const { flavor, dataDir, backend, etcd } = cli;
  const info = (m: string) => log.info(m);
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
  if (!cli.insecureHttp) {
    try {
      authn = await loadAuthenticationFlags(values, {
        flavor,
        stateDir: dataDir,
        featureGates: cli.featureGates,
      });
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
  try {
    // SQLite and memory stores have one server (the data directory is locked), which leads
    // without a Lease; several servers share only an etcd.
    const leaderIdentity =
      cli.leaderElection && backend === 'etcd' ? await loadLeaderIdentity(dataDir) : undefined;
    if (leaderIdentity) info(`leader election: this server is ${leaderIdentity}`);
    const continueTokenKey = storage.durable ? await loadOrCreateContinueTokenKey(dataDir) : undefined;
    const launched = await launchApiServer(
      buildLaunchOptions(cli, { storage, encryption, authn, leaderIdentity, continueTokenKey, log }),
    );
    return { launched, storage, authn };
  } catch (e) {
    await storage.store.close().catch(() => undefined);
    return startFailed(e);
  }
}
