/**
 * The authorizers the server builds from files: the `--authorization-config` controller (doc 2
 * §2.6), and the webhook of the `--authorization-webhook-*` flags (what upstream turns into a
 * one-webhook configuration: 30 s timeout, failure policy NoOpinion).
 */

import { readFileSync } from 'node:fs';
import { loadWebhookKubeconfig, type Gauge as PlainGauge } from '@orchard/authn';
import {
  type Authorizer,
  type AuthorizerType,
  type BuiltinAuthorizers,
  createAuthorizationConfigController,
  createWebhookAuthorizer,
  createWebhookMetrics,
  parseAuthorizationConfiguration,
  type WebhookMetrics,
} from '@orchard/authz';
import type { Flavor } from '@orchard/meta';
import type { AuthorizationWebhookFlags } from '../options.js';

/** A plain gauge of the authorizers and the label names its series carry, for `/metrics`. */
export interface AuthorizerGauge {
  readonly gauge: PlainGauge;
  readonly labelNames: readonly string[];
}

function webhookGauges(m: WebhookMetrics): AuthorizerGauge[] {
  return [
    { gauge: m.evaluations, labelNames: ['name', 'result'] },
    { gauge: m.failOpen, labelNames: ['name', 'result'] },
    { gauge: m.matchConditionExclusions, labelNames: ['type', 'name'] },
    { gauge: m.matchConditionErrors, labelNames: ['type', 'name'] },
  ];
}

/**
 * The webhook authorizer of the `--authorization-webhook-*` flags (its gauges added to `gauges`); an
 * unreadable or invalid kubeconfig throws an Error naming the flag.
 */
export function flagWebhookAuthorizer(
  flags: AuthorizationWebhookFlags,
  flavor: Flavor,
  log: (message: string) => void,
  gauges: AuthorizerGauge[] = [],
): Authorizer {
  let connection: ReturnType<typeof loadWebhookKubeconfig>;
  try {
    connection = loadWebhookKubeconfig(flags.configFile);
  } catch (e) {
    throw new Error(`--authorization-webhook-config-file: ${(e as Error).message}`);
  }
  const metrics = createWebhookMetrics();
  gauges.push(...webhookGauges(metrics));
  return createWebhookAuthorizer({
    connection,
    flavor,
    metrics,
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
 * until `signal` aborts; its reload and webhook gauges are added to `gauges`. A bad file throws an Error naming the flag; so does a policy file that no
 * ABAC authorizer of the configuration uses.
 */
export function configFileAuthorizer(
  path: string,
  builtins: BuiltinAuthorizers,
  flavor: Flavor,
  log: (message: string) => void,
  signal: AbortSignal,
  gauges: AuthorizerGauge[] = [],
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
  gauges.push(
    { gauge: controller.metrics.lastReloadTimestamp, labelNames: ['status'] },
    { gauge: controller.metrics.reloads, labelNames: ['status'] },
    ...webhookGauges(controller.metrics.webhooks),
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
