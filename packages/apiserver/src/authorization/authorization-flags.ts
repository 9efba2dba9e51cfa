/**
 * The authorization flags of the CLI (doc 2 §2.6, §5.3): `--authorization-mode` with its policy file
 * and webhook flags, or `--authorization-config` alone. Every misuse is refused before anything is
 * opened, with a message naming the flag.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type AuthorizationMode,
  parseAuthorizationConfiguration,
  parseAuthorizationModes,
} from '@orchard/authz';
import type { Flavor } from '@orchard/meta';
import { parseGoDuration } from '@orchard/meta/internal';
import type { ApiServerOptions } from '../options.js';
import { readAbacPolicyFile } from '../server-authorization.js';

/** The `parseArgs` definitions of the authorization flags this module adds. */
export const authorizationFlagOptions = {
  'authorization-webhook-config-file': { type: 'string' },
  'authorization-webhook-version': { type: 'string' },
  'authorization-webhook-cache-authorized-ttl': { type: 'string' },
  'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
  'authorization-config': { type: 'string' },
} as const;

/** What the authorization flags set in the server's options. */
export type AuthorizationFlags = Pick<
  ApiServerOptions,
  'authorizationModes' | 'authorizationPolicyFile' | 'authorizationWebhook' | 'authorizationConfigFile'
>;

/** The mode list when `--authorization-mode` is not given. */
export const defaultAuthorizationModeFlag = 'Node,RBAC';

const legacyFlags = [
  'authorization-mode',
  'authorization-webhook-config-file',
  'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl',
  'authorization-webhook-cache-unauthorized-ttl',
] as const;

function ttl(values: Record<string, unknown>, flag: string): number | undefined {
  const v = values[flag];
  if (typeof v !== 'string') return undefined;
  let ns: bigint;
  try {
    ns = parseGoDuration(v);
  } catch (e) {
    throw new Error(`invalid argument "${v}" for "--${flag}" flag: ${(e as Error).message}`);
  }
  if (ns < 0n) throw new Error(`invalid argument "${v}" for "--${flag}" flag: must not be negative`);
  return Number(ns / 1_000_000n);
}

/**
 * Reads the authorization flags from parsed CLI values. Throws an Error naming the flag: an unknown
 * mode, a policy or webhook file without its mode (or the reverse), a bad webhook version or TTL,
 * `--authorization-config` together with `--authorization-mode` or `--authorization-webhook-*`, or a
 * configuration or ABAC policy file that is unreadable or invalid (its line or fields named).
 */
export function readAuthorizationFlags(values: Record<string, unknown>, flavor: Flavor): AuthorizationFlags {
  const str = (flag: string) => (typeof values[flag] === 'string' ? (values[flag] as string) : undefined);
  const policyFile = str('authorization-policy-file');
  const configFile = str('authorization-config');
  if (configFile !== undefined) {
    if (legacyFlags.some((f) => values[f] !== undefined))
      throw new Error(
        '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
      );
    const path = resolve(configFile);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(`--authorization-config: cannot read ${path}: ${(e as Error).message}`);
    }
    try {
      parseAuthorizationConfiguration(text, { file: path, flavor });
    } catch (e) {
      throw new Error(`--authorization-config: ${(e as Error).message}`);
    }
    if (policyFile !== undefined) readAbacPolicyFile(resolve(policyFile), flavor);
    return {
      authorizationModes: [],
      authorizationConfigFile: path,
      ...(policyFile !== undefined ? { authorizationPolicyFile: resolve(policyFile) } : {}),
    };
  }
  const authorizationModes: AuthorizationMode[] = parseAuthorizationModes(
    str('authorization-mode') ?? defaultAuthorizationModeFlag,
  );
  if (policyFile !== undefined && !authorizationModes.includes('ABAC'))
    throw new Error('--authorization-policy-file: given without mode ABAC in --authorization-mode');
  if (policyFile === undefined && authorizationModes.includes('ABAC'))
    throw new Error('--authorization-mode: ABAC needs --authorization-policy-file');
  // A bad policy file is a bad flag: refused here, naming the file, line and field (exit 2).
  if (policyFile !== undefined) readAbacPolicyFile(resolve(policyFile), flavor);
  const webhookFile = str('authorization-webhook-config-file');
  if (webhookFile !== undefined && !authorizationModes.includes('Webhook'))
    throw new Error('--authorization-webhook-config-file: cannot be specified without mode Webhook');
  if (webhookFile === undefined && authorizationModes.includes('Webhook'))
    throw new Error(
      "--authorization-mode: authorization-mode Webhook's authorization config file not passed",
    );
  const version = str('authorization-webhook-version');
  if (version !== undefined && version !== 'v1' && version !== 'v1beta1')
    throw new Error(`--authorization-webhook-version: unsupported version "${version}" (v1 or v1beta1)`);
  const authorizedTtlMs = ttl(values, 'authorization-webhook-cache-authorized-ttl');
  const unauthorizedTtlMs = ttl(values, 'authorization-webhook-cache-unauthorized-ttl');
  return {
    authorizationModes,
    ...(policyFile !== undefined ? { authorizationPolicyFile: resolve(policyFile) } : {}),
    ...(webhookFile !== undefined
      ? {
          authorizationWebhook: {
            configFile: resolve(webhookFile),
            ...(version !== undefined ? { version } : {}),
            ...(authorizedTtlMs !== undefined ? { authorizedTtlMs } : {}),
            ...(unauthorizedTtlMs !== undefined ? { unauthorizedTtlMs } : {}),
          },
        }
      : {}),
  };
}
