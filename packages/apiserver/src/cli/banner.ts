import { join } from 'node:path';
import type { CliOptions } from './cli-options.js';
import { type CliLogger, createPino } from './logging.js';
import type { CliServer } from './start-up.js';

/** What the start banner (or the JSON `ready` record) tells: where and how the server runs. */
export interface ReadyInfo {
  readonly url: string;
  readonly kubeconfig: string;
  readonly flavor: string;
  /** The storage backend's description (`sqlite /path/orchard.sqlite`, `memory …`, `etcd …`). */
  readonly storage: string;
  readonly dataDir: string;
  /** The authentication methods; empty in insecure mode (every request is the admin). */
  readonly authentication: readonly string[];
  /** The authorizers in order, or the `--authorization-config` file. */
  readonly authorization: readonly string[];
  /** A shell line pointing kubectl at the written kubeconfig. */
  readonly export: string;
}

/** `s` as one shell word: as it is when it is plain, else single-quoted. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** What the banner shows for a started server. */
export function readyInfo(cli: CliOptions, { launched, storage }: CliServer): ReadyInfo {
  const { authz } = cli;
  return {
    url: launched.url,
    kubeconfig: cli.kubeconfigOut,
    flavor: cli.flavor.name,
    storage: storage.description,
    dataDir: cli.dataDir,
    authentication: launched.server.authentication?.methods ?? [],
    authorization: authz.authorizationConfigFile
      ? [`--authorization-config ${authz.authorizationConfigFile}`]
      : (authz.authorizationModes ?? []),
    export: `export KUBECONFIG=${shellQuote(cli.kubeconfigOut)}`,
  };
}

/**
 * The one-screen start banner (text logs): on standard output, for people and scripts alike. The
 * `authentication:`, `listening on` and `kubeconfig written to` lines are read by scripts (see the
 * README): their form does not change.
 */
export function formatBanner(info: ReadyInfo, insecure: boolean, log: string): string {
  return [
    `Orchard API server ready (flavor ${info.flavor})`,
    `listening on ${info.url}`,
    `kubeconfig written to ${info.kubeconfig}`,
    `storage: ${info.storage} (data dir ${info.dataDir})`,
    `authentication: ${insecure ? 'none (insecure HTTP: every request is the admin)' : info.authentication.join(', ')}`,
    `authorization: ${insecure ? 'none (insecure HTTP: every request is the admin)' : info.authorization.join(', ')}`,
    `logs: ${log}`,
    '',
    `  ${info.export}`,
    '',
  ].join('\n');
}

/**
 * What a started server tells its operator: certificates and authentication notes go to the log;
 * then the banner on standard output, or with `--log-format json` one `ready` record (a pino line
 * with the same facts) there instead.
 */
export function printBanner(cli: CliOptions, started: CliServer, log: CliLogger): void {
  const { launched, authn } = started;
  if (launched.tlsDir)
    log.info(
      `certificates in ${join(cli.dataDir, 'tls')}: CA ${launched.tlsDir.ca}, serving ${launched.tlsDir.serving}, admin ${launched.tlsDir.admin}`,
    );
  for (const note of authn?.notes ?? []) log.info(note);
  const info = readyInfo(cli, started);
  const { format, verbosity } = log.settings;
  if (format === 'json') {
    createPino('json', process.stdout).info({ ...info, insecure: cli.insecureHttp }, 'ready');
    return;
  }
  process.stdout.write(formatBanner(info, cli.insecureHttp, `${format}, -v ${verbosity} (standard error)`));
}
