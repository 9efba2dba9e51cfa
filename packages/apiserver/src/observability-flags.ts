/**
 * The observability flags of `orchard-apiserver`: audit logging, metric stability and the livez
 * grace period, parsed into server options (a bad value is a message naming the flag).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Flavor } from '@orchard/meta';
import { maxAuditPolicyBytes, parseAuditPolicy } from './audit/policy.js';
import type { AuditOptions } from './audit/server-audit.js';
import { parseDuration } from './duration.js';
import { validateShowHiddenVersion } from './metrics/stability.js';
import { versionInfo } from './version.js';

/** The `parseArgs` options of these flags. */
export const observabilityFlagOptions = {
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-log-maxsize': { type: 'string' },
  'audit-log-maxbackup': { type: 'string' },
  'show-hidden-metrics-for-version': { type: 'string' },
  'livez-grace-period': { type: 'string' },
} as const;

/** Server options from the flags (only those given). */
export interface ObservabilityFlags {
  readonly audit?: AuditOptions;
  readonly showHiddenMetricsForVersion?: string;
  readonly livezGracePeriodMs?: number;
}

/**
 * Parses the flags in `values`; throws an Error whose message names the bad flag, or the policy
 * file and field (the policy is read and validated here, before anything is started).
 */
export function parseObservabilityFlags(values: Record<string, unknown>, flavor: Flavor): ObservabilityFlags {
  const str = (flag: string): string | undefined =>
    typeof values[flag] === 'string' ? (values[flag] as string) : undefined;
  const count = (flag: string): number | undefined => {
    const v = str(flag);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
      throw new Error(`invalid --${flag} ${v}: must be a non-negative integer`);
    return Number(v);
  };
  const policyFile = str('audit-policy-file');
  const logPath = str('audit-log-path');
  const maxSize = count('audit-log-maxsize');
  const maxBackup = count('audit-log-maxbackup');
  if (policyFile !== undefined && logPath === undefined)
    throw new Error('--audit-policy-file needs --audit-log-path (where the events go)');
  if (logPath !== undefined && policyFile === undefined)
    throw new Error(
      '--audit-log-path needs --audit-policy-file (which requests are audited, at which level)',
    );
  if ((maxSize !== undefined || maxBackup !== undefined) && (logPath === undefined || logPath === '-'))
    throw new Error('--audit-log-maxsize and --audit-log-maxbackup apply to an --audit-log-path file only');
  let livezGracePeriodMs: number | undefined;
  const grace = str('livez-grace-period');
  if (grace !== undefined) {
    try {
      livezGracePeriodMs = parseDuration(grace);
    } catch (e) {
      throw new Error(`invalid --livez-grace-period ${grace}: ${(e as Error).message}`);
    }
    if (livezGracePeriodMs < 0)
      throw new Error(`invalid --livez-grace-period ${grace}: must not be negative`);
  }
  const hidden = str('show-hidden-metrics-for-version');
  if (hidden !== undefined) {
    const v = versionInfo();
    const bad = validateShowHiddenVersion(hidden, `${v.major}.${v.minor}`);
    if (bad) throw new Error(`invalid --show-hidden-metrics-for-version ${hidden}: ${bad}`);
  }
  let policy: ReturnType<typeof parseAuditPolicy> | undefined;
  if (policyFile !== undefined) {
    let text: string;
    try {
      // A huge file is refused by its size, before it is read into memory.
      const size = statSync(policyFile).size;
      if (size > maxAuditPolicyBytes)
        throw new Error(`${policyFile}: larger than ${maxAuditPolicyBytes} bytes (${size} bytes)`);
      text = readFileSync(policyFile, 'utf8');
    } catch (e) {
      if ((e as Error).message.startsWith(`${policyFile}: larger than`)) throw e;
      throw new Error(`--audit-policy-file ${policyFile}: cannot read: ${(e as Error).message}`);
    }
    policy = parseAuditPolicy(text, policyFile, flavor);
  }
  return {
    ...(policy !== undefined && logPath !== undefined
      ? {
          audit: {
            policy,
            logPath: logPath === '-' ? '-' : resolve(logPath),
            ...(maxSize !== undefined ? { maxSizeMegabytes: maxSize } : {}),
            ...(maxBackup !== undefined ? { maxBackups: maxBackup } : {}),
          },
        }
      : {}),
    ...(hidden !== undefined ? { showHiddenMetricsForVersion: hidden } : {}),
    ...(livezGracePeriodMs !== undefined ? { livezGracePeriodMs } : {}),
  };
}
