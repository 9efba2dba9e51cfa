/**
 * The authorizers the server builds from files: the `--authorization-config` controller (doc 2
 * §2.6), and the webhook of the `--authorization-webhook-*` flags (what upstream turns into a
 * one-webhook configuration: 30 s timeout, failure policy NoOpinion).
 */

import { readFileSync } from 'node:fs';
import { loadWebhookKubeconfig } from '@orchard/authn';
import {
  type Authorizer,
  type AuthorizerType,
  type BuiltinAuthorizers,
  createAuthorizationConfigController,
  createWebhookAuthorizer,
  parseAuthorizationConfiguration,
} from '@orchard/authz';
import type { Flavor } from '@orchard/meta';
import type { AuthorizationWebhookFlags } from '../options.js';

/**
 * The webhook authorizer of the `--authorization-webhook-*` flags; an unreadable or invalid kubeconfig
 * throws an Error naming the flag.
 */
export function flagWebhookAuthorizer(
  flags: AuthorizationWebhookFlags,
  flavor: Flavor,
  log: (message: string) => void,
): Authorizer {
  let connection: ReturnType<typeof loadWebhookKubeconfig>;
  try {
    connection = loadWebhookKubeconfig(flags.configFile);
  } catch (e) {
    throw new Error(`--authorization-webhook-config-file: ${(e as Error).message}`);
  }
  return createWebhookAuthorizer({
    connection,
    flavor,
    failurePolicy: 'NoOpinion',
    timeoutMs: 30_000,
    onError: log,
    ...(flags.version ? { version: flags.version } : {}),
    ...(flags.authorizedTtlMs !== undefined ? { authorizedTtlMs: flags.authorizedTtlMs } : {}),
    ...(flags.unauthorizedTtlMs !== undefined ? { unauthorizedTtlMs: flags.unauthorizedTtlMs } : {}),
  });
}

/**
 * The authorizer of an `--authorization-config` file over the server's built-in authorizers, reloaded
 * until `signal` aborts. A bad file throws an Error naming the flag; so does a policy file that no
 * ABAC authorizer of the configuration uses.
 */
export function configFileAuthorizer(
  path: string,
  builtins: BuiltinAuthorizers,
  flavor: Flavor,
  log: (message: string) => void,
  signal: AbortSignal,
): Authorizer {
  let controller: ReturnType<typeof createAuthorizationConfigController>;
  try {
    controller = createAuthorizationConfigController({ path, builtins, flavor, log });
  } catch (e) {
    throw new Error(`--authorization-config: ${(e as Error).message}`);
  }
  if (builtins.ABAC && !controller.configuration.authorizers.some((a) => a.type === 'ABAC'))
    throw new Error(
      '--authorization-policy-file: given without an ABAC authorizer in --authorization-config',
    );
  controller.start();
  signal.addEventListener('abort', () => controller.stop(), { once: true });
  return controller.authorizer;
}

/** The authorizer types an `--authorization-config` file names now; none when it cannot be read. */
export function configuredTypes(path: string, flavor: Flavor): AuthorizerType[] {
  try {
    const c = parseAuthorizationConfiguration(readFileSync(path, 'utf8'), { file: path, flavor });
    return c.authorizers.map((a) => a.type);
  } catch {
    return [];
  }
}
