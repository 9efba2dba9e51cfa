import { join, resolve } from 'node:path';
import { type Flavor, flavorByName } from '@orchard/meta';
import { type AuthorizationFlags, readAuthorizationFlags } from '../authorization/authorization-flags.js';
import { parseLeaderElectionFlags } from '../controllers/leader-election-flags.js';
import { parseDuration } from '../duration.js';
import { type FeatureGateOverrides, featureGateWarnings, parseFeatureGates } from '../feature-gates.js';
import { isLoopback } from '../launch.js';
import { type ObservabilityFlags, parseObservabilityFlags } from '../observability-flags.js';
import { serviceRangeOptions } from '../services/ip-range.js';
import {
  type EtcdStorageOptions,
  isStorageBackend,
  parseEtcdServers,
  type StorageBackend,
  storageBackends,
} from '../storage/open-storage.js';
import { parseVersionFlags, type VersionFlags } from '../versions/version-flags.js';
import type { CliFlagValues } from './flags.js';
import { parseTlsSans } from './flags.js';
import { type LogSettings, readLogSettings } from './logging.js';

/** The command line, checked and typed: everything the start-up needs that no file or store holds. */
export interface CliOptions {
  readonly port: number;
  readonly host: string;
  readonly insecureHttp: boolean;
  readonly tlsSubjectAltNames: string[];
  readonly flavor: Flavor;
  readonly backend: StorageBackend;
  /** `--data-dir`, absolute. */
  readonly dataDir: string;
  /** The etcd connection (only with `--storage etcd`). */
  readonly etcd: EtcdStorageOptions | undefined;
  readonly maxBody: number | undefined;
  readonly featureGates: FeatureGateOverrides;
  /** Leader election settings; undefined when `--leader-elect=false`. */
  readonly leaderElection: ReturnType<typeof parseLeaderElectionFlags>;
  readonly observability: ObservabilityFlags;
  /** `--runtime-config` and `--emulated-release`, checked against the built-in resources. */
  readonly versions: VersionFlags;
  readonly shutdownDelayMs: number;
  /** The request limits given on the command line (undefined: the server's default). */
  readonly limits: {
    readonly maxRequestsInflight: number | undefined;
    readonly maxMutatingRequestsInflight: number | undefined;
    readonly maxWatchesPerUser: number | undefined;
    readonly requestTimeoutMs: number | undefined;
  };
  readonly watchWindowMs: number | undefined;
  readonly continueTtlMs: number | undefined;
  readonly compactionIntervalMs: number | undefined;
  readonly serviceRanges: ReturnType<typeof serviceRangeOptions>;
  readonly authz: AuthorizationFlags;
  /** `--kubeconfig-out`, absolute (default `<data-dir>/admin.kubeconfig`). */
  readonly kubeconfigOut: string;
  readonly simulateReplicaReadiness: boolean;
  /** `--node-monitor-grace-period`, ms (undefined: the controller's default, 50 s). */
  readonly nodeMonitorGracePeriodMs: number | undefined;
  /** `--log-format` and `-v`. */
  readonly log: LogSettings;
}

/**
 * Checks the parsed flags in the order a user reads them, calling `fail` (which does not return)
 * with one line naming the first bad flag. Reads no file and touches no directory.
 */
export function readCliOptions(
  values: CliFlagValues,
  fail: (msg: string) => never,
  warn: (msg: string) => void = (m) => process.stderr.write(`warning: ${m}\n`),
): CliOptions {
  let log: LogSettings;
  try {
    log = readLogSettings(values);
  } catch (e) {
    return fail((e as Error).message);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --port ${String(values.port)}`);
  let flavor: Flavor;
  try {
    flavor = flavorByName(String(values.flavor));
  } catch (e) {
    return fail((e as Error).message);
  }
  const backend = String(values.storage);
  if (!isStorageBackend(backend))
    return fail(`unsupported --storage ${backend} (available: ${storageBackends.join(', ')})`);
  const dataDir = resolve(String(values['data-dir']));
  const etcd = readEtcdFlags(values, backend, fail);
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
    // Deprecated and GA gates work but warn when set (spec doc 1 §9.3 rules 6, 10).
    for (const w of featureGateWarnings(featureGates)) warn(w);
  } catch (e) {
    return fail(`invalid argument for --feature-gates: ${(e as Error).message}`);
  }
  let leaderElection: ReturnType<typeof parseLeaderElectionFlags>;
  let observability: ObservabilityFlags;
  let versions: VersionFlags;
  try {
    leaderElection = parseLeaderElectionFlags(values);
    observability = parseObservabilityFlags(values, flavor);
    versions = parseVersionFlags(values, flavor);
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
  const nodeMonitorGracePeriodMs = duration('node-monitor-grace-period');
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
  return {
    port,
    host,
    insecureHttp: values['insecure-http'] === true,
    tlsSubjectAltNames: parseTlsSans(values['tls-san']),
    flavor,
    backend,
    dataDir,
    etcd,
    maxBody,
    featureGates,
    leaderElection,
    observability,
    versions,
    shutdownDelayMs,
    limits,
    watchWindowMs,
    continueTtlMs,
    compactionIntervalMs,
    serviceRanges,
    authz,
    kubeconfigOut,
    simulateReplicaReadiness: values['simulate-replica-readiness'] === true,
    nodeMonitorGracePeriodMs,
    log,
  };
}

/** The `--etcd-*` flags: required and checked with `--storage etcd`, refused with any other backend. */
function readEtcdFlags(
  values: CliFlagValues,
  backend: StorageBackend,
  fail: (msg: string) => never,
): EtcdStorageOptions | undefined {
  if (backend !== 'etcd') {
    const stray = ['etcd-servers', 'etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile'].find(
      (f) => values[f] !== undefined,
    );
    if (stray) return fail(`--${stray} applies to --storage etcd only`);
    return undefined;
  }
  if (typeof values['etcd-servers'] !== 'string') return fail('--storage etcd needs --etcd-servers');
  let etcd: EtcdStorageOptions;
  try {
    etcd = { servers: parseEtcdServers(values['etcd-servers']) };
  } catch (e) {
    return fail(`invalid --etcd-servers: ${(e as Error).message}`);
  }
  const prefix = values['etcd-prefix'];
  if (typeof prefix === 'string' && !prefix.startsWith('/'))
    return fail(`invalid --etcd-prefix ${prefix}: must start with /`);
  const file = (flag: string) => (typeof values[flag] === 'string' ? resolve(values[flag]) : undefined);
  return {
    ...etcd,
    ...(typeof prefix === 'string' ? { prefix: prefix.replace(/\/+$/, '') || '/' } : {}),
    ...(file('etcd-cafile') ? { caFile: file('etcd-cafile') } : {}),
    ...(file('etcd-certfile') ? { certFile: file('etcd-certfile') } : {}),
    ...(file('etcd-keyfile') ? { keyFile: file('etcd-keyfile') } : {}),
  };
}
