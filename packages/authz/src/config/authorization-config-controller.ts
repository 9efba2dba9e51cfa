/**
 * The authorizer of an `--authorization-config` file (doc 2 §2.6): the `system:masters` bypass, then
 * each configured authorizer in order. The file is reloaded when it changes and every 60 s; a bad
 * edit is logged and the last good chain stays. A reload may reorder the built-in authorizers (Node,
 * RBAC, ABAC) but neither add nor remove them; webhooks may change freely (their caches start empty).
 */
import {
  type FetchLike,
  loadWebhookKubeconfig,
  type ReloadMetrics,
  type ReloadOutcome,
} from '@orchard/authn';
import { createConfigFileReloader, createReloadMetrics } from '@orchard/authn/internal';
import { type Flavor, orchFlavor } from '@orchard/meta';
import type { Authorizer } from '../authorizer.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from '../authorizer.js';
import { createAuthorizerChain, createPrivilegedGroupsAuthorizer } from '../chain.js';
import { createWebhookAuthorizer } from '../webhook/webhook-authorizer.js';
import { createWebhookMetrics, type WebhookMetrics } from '../webhook/webhook-metrics.js';
import {
  AuthorizationConfigError,
  type AuthorizationConfiguration,
  type AuthorizerType,
  parseAuthorizationConfiguration,
} from './authorization-config.js';

/** The built-in authorizers a configuration may name; the server builds them once. */
export interface BuiltinAuthorizers {
  readonly RBAC?: Authorizer;
  readonly Node?: Authorizer;
  /** From `--authorization-policy-file`. */
  readonly ABAC?: Authorizer;
}

/** Options of `createAuthorizationConfigController`; `path` is required. Not mutated. */
export interface AuthorizationConfigControllerOptions {
  /** The `--authorization-config` file. */
  readonly path: string;
  readonly flavor?: Flavor;
  /** The built-in authorizers the server offers (a type without one is refused). */
  readonly builtins?: BuiltinAuthorizers;
  /** Groups that bypass every authorizer. Default `['system:masters']`. */
  readonly privilegedGroups?: readonly string[];
  /** How often the file is checked besides change notifications, ms. Default 60 s (doc 2 §2.6). */
  readonly reloadIntervalMs?: number;
  /** Where reloads, rejected edits and webhook failures are reported. Default `console.error`. */
  readonly log?: (message: string) => void;
  /** Replaces every webhook's HTTPS client (tests). */
  readonly fetch?: FetchLike;
  readonly now?: () => number;
}

/** The defaults of `AuthorizationConfigControllerOptions` that are values: a 60 s reload. Frozen. */
export const defaultAuthorizationConfigControllerOptions: Readonly<
  Required<Pick<AuthorizationConfigControllerOptions, 'reloadIntervalMs'>>
> = Object.freeze({ reloadIntervalMs: 60_000 });

/** The configured chain, kept current with its file (see the module doc). */
export interface AuthorizationConfigController {
  /** Decides with the chain in force at the time of the call. */
  readonly authorizer: Authorizer;
  /** The configuration in force. */
  readonly configuration: AuthorizationConfiguration;
  /**
   * Reload metrics (`apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds`,
   * `..._automatic_reloads_total`, by `status`) and the webhooks' counters.
   */
  readonly metrics: ReloadMetrics & { readonly webhooks: WebhookMetrics };
  /** Checks the file now (what the timer and the file watch do). Never throws. */
  check(): ReloadOutcome;
  /** Starts the reload timer and file watch (idempotent; neither keeps the process alive). */
  start(): void;
  stop(): void;
}

interface Loaded {
  readonly configuration: AuthorizationConfiguration;
  readonly chain: Authorizer;
}

const builtinTypes: readonly AuthorizerType[] = ['Node', 'RBAC', 'ABAC'];
const fixedAuthorizers: Partial<Record<AuthorizerType, Authorizer>> = {
  AlwaysAllow: alwaysAllowAuthorizer,
  AlwaysDeny: alwaysDenyAuthorizer,
};

/**
 * Loads the file (a bad file, or a type the server cannot build, throws `AuthorizationConfigError`
 * naming the file and field: a start-up error) and returns the controller; `start()` reloads.
 */
export function createAuthorizationConfigController(
  options: AuthorizationConfigControllerOptions,
): AuthorizationConfigController {
  const o = { ...defaultAuthorizationConfigControllerOptions, ...options };
  const log = o.log ?? ((m: string) => console.error(m));
  const flavor = o.flavor ?? orchFlavor;
  const builtins = o.builtins ?? {};
  const webhooks = createWebhookMetrics();
  const metrics = createReloadMetrics(
    'apiserver_authorization_config_controller',
    'authorization configuration',
  );
  let required: ReadonlySet<AuthorizerType> | undefined;

  function build(text: string, previous: Loaded | undefined): Loaded {
    const configuration = parseAuthorizationConfiguration(text, { file: o.path, flavor });
    const types = new Set(configuration.authorizers.map((a) => a.type));
    if (previous && required) {
      const missing = [...required].filter((t) => !types.has(t)).sort();
      if (missing.length > 0)
        throw new AuthorizationConfigError(`${o.path}: missing required types: [${missing.join(' ')}]`);
      const added = builtinTypes.filter((t) => types.has(t) && !required!.has(t));
      if (added.length > 0)
        throw new AuthorizationConfigError(
          `${o.path}: authorizer type ${added[0]} is not allowed if it was not enabled at initial server startup`,
        );
    }
    const chain: Authorizer[] = [createPrivilegedGroupsAuthorizer(o.privilegedGroups)];
    for (const [i, a] of configuration.authorizers.entries()) {
      switch (a.type) {
        case 'Webhook': {
          const w = a.webhook!;
          let connection: ReturnType<typeof loadWebhookKubeconfig>;
          try {
            connection = loadWebhookKubeconfig(w.kubeConfigFile);
          } catch (e) {
            throw new AuthorizationConfigError(
              `${o.path}: authorizers[${i}].webhook.connectionInfo.kubeConfigFile: ${(e as Error).message}`,
            );
          }
          chain.push(
            createWebhookAuthorizer({
              connection,
              name: a.name,
              version: w.subjectAccessReviewVersion,
              authorizedTtlMs: w.authorizedTtlMs,
              unauthorizedTtlMs: w.unauthorizedTtlMs,
              timeoutMs: w.timeoutMs,
              failurePolicy: w.failurePolicy,
              matchConditions: w.matchConditions,
              flavor,
              metrics: webhooks,
              onError: log,
              ...(o.fetch ? { fetch: o.fetch } : {}),
              ...(o.now ? { now: o.now } : {}),
            }),
          );
          break;
        }
        default: {
          const builtin = fixedAuthorizers[a.type] ?? builtins[a.type as keyof BuiltinAuthorizers];
          if (!builtin)
            throw new AuthorizationConfigError(
              a.type === 'ABAC'
                ? `${o.path}: authorizers[${i}]: type ABAC needs --authorization-policy-file`
                : `${o.path}: authorizers[${i}]: authorizer type ${a.type} is not available in this server`,
            );
          chain.push(builtin);
        }
      }
    }
    required ??= new Set(builtinTypes.filter((t) => types.has(t)));
    return { configuration, chain: createAuthorizerChain(chain) };
  }

  const reloader = createConfigFileReloader<Loaded>({
    path: o.path,
    what: 'authorization config',
    build,
    describe: (l) =>
      `reloaded ${o.path} (${l.configuration.authorizers.map((a) => `${a.type}/${a.name}`).join(', ')})`,
    metrics,
    log,
    ...(o.now ? { now: o.now } : {}),
    fail: (m) => new AuthorizationConfigError(m),
  });

  const authorizer: Authorizer = {
    authorize: (a) => reloader.current.chain.authorize(a),
    rulesFor: (user, namespace) =>
      reloader.current.chain.rulesFor?.(user, namespace) ?? {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
      },
  };
  return {
    authorizer,
    get configuration() {
      return reloader.current.configuration;
    },
    metrics: { ...metrics, webhooks },
    check: () => reloader.check(),
    start: () => reloader.start(o.reloadIntervalMs, true),
    stop: () => reloader.stop(),
  };
}
