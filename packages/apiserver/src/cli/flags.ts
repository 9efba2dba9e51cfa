import { parseArgs } from 'node:util';
import { authenticationFlagOptions, normalizeBooleanFlags } from '../authentication/authentication-flags.js';
import { authorizationFlagOptions } from '../authorization/authorization-flags.js';
import { leaderElectionFlagOptions, normalizeLeaderElectFlag } from '../controllers/leader-election-flags.js';
import { observabilityFlagOptions } from '../observability-flags.js';
import { versionFlagOptions } from '../versions/version-flags.js';
import { deprecatedFlagOptions } from './deprecated-flags.js';
import { logFlagOptions } from './logging.js';

/** The parsed command line: each flag's value by its name without the dashes. */
export type CliFlagValues = Record<string, string | boolean | string[] | undefined>;

/** The server's own flags; the flag groups (authentication, authorization, leader election, observability) add theirs. */
const serverFlagOptions = {
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
  'node-monitor-grace-period': { type: 'string' },
  'authorization-mode': { type: 'string' },
  'authorization-policy-file': { type: 'string' },
} as const;

/** Every flag the parser accepts (`flag-table.ts` lists the same ones for `--help`). */
export const cliFlagOptions = Object.freeze({
  ...serverFlagOptions,
  ...authorizationFlagOptions,
  help: { type: 'boolean', short: 'h', default: false },
  ...leaderElectionFlagOptions,
  ...observabilityFlagOptions,
  ...versionFlagOptions,
  ...authenticationFlagOptions,
  ...deprecatedFlagOptions,
  ...logFlagOptions,
} as const);

/**
 * Parses `orchard-apiserver`'s arguments (strict: an unknown flag or a missing value throws, with
 * `node:util`'s message). `--flag=false` forms of the boolean flags are normalized first.
 */
export function parseCliArgs(argv: readonly string[]): CliFlagValues {
  const { values } = parseArgs({
    args: normalizeLeaderElectFlag(normalizeBooleanFlags(argv)),
    options: cliFlagOptions,
    strict: true,
  });
  return values;
}

/** `--tls-san` values: repeated flags and comma-separated lists alike. */
export function parseTlsSans(values: unknown): string[] {
  const list = Array.isArray(values) ? values : typeof values === 'string' ? [values] : [];
  return list
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
