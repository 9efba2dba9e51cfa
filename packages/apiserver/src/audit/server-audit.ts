import { readFileSync } from 'node:fs';
import type { Flavor } from '@orchard/meta';
import type { ServerAudit } from '../filters/audit.js';
import type { Logger } from '../options.js';
import { createAuditLogWriter } from './log-writer.js';
import { type AuditPolicy, AuditPolicyError, parseAuditPolicy } from './policy.js';

/**
 * Audit logging of a server (upstream `--audit-policy-file`, `--audit-log-*`): which requests are
 * recorded at which level, and where the JSON lines go.
 */
export interface AuditOptions {
  /** The policy file (`audit.<domain>/v1` Policy, YAML or JSON); read and validated at start. */
  readonly policyFile?: string;
  /** An already parsed policy (instead of `policyFile`). */
  readonly policy?: AuditPolicy;
  /** The log file, or `-` for standard output (`--audit-log-path`). */
  readonly logPath: string;
  /** Rotate when the file would exceed this many megabytes (`--audit-log-maxsize`); 0 (default) = never. */
  readonly maxSizeMegabytes?: number;
  /** Rotated files kept (`--audit-log-maxbackup`); 0 (default) = all. */
  readonly maxBackups?: number;
}

/**
 * Reads the policy (a bad file throws `AuditPolicyError` naming the file and field) and creates the
 * writer. Undefined without options: the audit filter then does nothing.
 */
export function createServerAudit(
  options: AuditOptions | undefined,
  flavor: Flavor,
  log: Logger,
): ServerAudit | undefined {
  if (!options) return undefined;
  let policy = options.policy;
  if (!policy) {
    const file = options.policyFile;
    if (file === undefined) throw new AuditPolicyError('audit: a policy (policyFile or policy) is required');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new AuditPolicyError(`${file}: cannot read the audit policy: ${(e as Error).message}`);
    }
    policy = parseAuditPolicy(text, file, flavor);
  }
  const onError = (message: string, error?: unknown) => log.error(message, error);
  const writer = createAuditLogWriter({
    path: options.logPath,
    maxSizeBytes: Math.max(0, options.maxSizeMegabytes ?? 0) * 1024 * 1024,
    maxBackups: Math.max(0, options.maxBackups ?? 0),
    onError,
  });
  return { policy, writer, onError };
}
