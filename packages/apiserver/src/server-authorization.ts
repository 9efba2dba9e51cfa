import { readFileSync } from 'node:fs';
import {
  type AbacPolicy,
  type Authorizer,
  alwaysAllowAuthorizer,
  createAbacAuthorizer,
  createModeAuthorizer,
  createNodeAuthorizer,
  createRbacAuthorizer,
  type NodeGraph,
  parseAbacPolicies,
} from '@orchard/authz';
import type { Flavor } from '@orchard/meta';
import type { RbacEvaluator } from '@orchard/rbac';
import {
  type AuthorizerGauge,
  configFileAuthorizer,
  configuredTypes,
  flagWebhookAuthorizer,
} from './authorization/configured-authorizers.js';
import { featureEnabled } from './feature-gates.js';
import { startNodeGraphInformer } from './node/node-graph-informer.js';
import type { ApiServerOptions } from './options.js';
import { createAggregationController } from './rbac/aggregation-controller.js';
import { reconcileDefaultPolicy } from './rbac/default-policy.js';
import { type RbacInformer, startRbacInformer } from './rbac/rbac-informer.js';
import { rbacGroup } from './rbac/rbac-resources.js';
import type { ServerState } from './state.js';
import type { CacheInformer } from './storage/cache-informer.js';

/** The server's authorization: the chain, and the RBAC evaluator fed from the served RBAC objects. */
export interface ServerAuthorization {
  readonly authorizer: Authorizer;
  readonly rbac: RbacEvaluator;
  /** The Node authorizer's graph (fed from the Pod watch cache when mode `Node` is on). */
  readonly nodeGraph: NodeGraph;
  /**
   * Resolves once RBAC decisions reflect every write up to `revision` (a resourceVersion; default:
   * the start-up state) and ClusterRole aggregation has settled. Decisions follow writes within one
   * watch fan-out; tests use this instead of sleeping.
   */
  synced(revision?: number): Promise<void>;
}

/**
 * The policies of an `--authorization-policy-file` under `flavor`. Throws an Error naming the flag and
 * the file (unreadable), or the file, line and field (a bad line).
 */
export function readAbacPolicyFile(path: string, flavor: Flavor): AbacPolicy[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--authorization-policy-file: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return parseAbacPolicies(text, path, flavor);
  } catch (e) {
    throw new Error(`--authorization-policy-file: ${(e as Error).message}`);
  }
}

/** The ABAC authorizer of `--authorization-policy-file`; a bad file stops the start naming it. */
function abacFromFile(path: string | undefined, flavor: Flavor): Authorizer | undefined {
  return path === undefined ? undefined : createAbacAuthorizer(readAbacPolicyFile(path, flavor));
}

/**
 * The authorizer chain the options ask for: `options.authorizer` if given, the `--authorization-config`
 * chain (reloaded until `signal` aborts), the allow-all authorizer for a lone `AlwaysAllow` mode,
 * otherwise the mode chain over RBAC, Node (over `nodeGraph`), ABAC (from its policy file) and the
 * webhook of the `--authorization-webhook-*` flags. The gauges of webhooks and of the configuration
 * reload are added to `gauges` (for `/metrics`).
 */
export function resolveAuthorizer(
  options: ApiServerOptions,
  rbac: RbacEvaluator,
  nodeGraph: NodeGraph,
  signal: AbortSignal,
  gauges: AuthorizerGauge[] = [],
): Authorizer {
  if (options.authorizer) return options.authorizer;
  const log = (m: string) => options.logger.info(m);
  const abac = abacFromFile(options.authorizationPolicyFile, options.flavor);
  const rbacAuthorizer = createRbacAuthorizer(rbac);
  const node = createNodeAuthorizer({
    graph: nodeGraph,
    flavor: options.flavor,
    withSelectors: featureEnabled(options.featureGates, 'AuthorizeNodeWithSelectors'),
  });
  if (options.authorizationConfigFile !== undefined) {
    const builtins = { RBAC: rbacAuthorizer, Node: node, ...(abac ? { ABAC: abac } : {}) };
    return configFileAuthorizer(
      options.authorizationConfigFile,
      builtins,
      options.flavor,
      log,
      signal,
      gauges,
    );
  }
  const onlyAllowAll =
    options.authorizationModes.length === 1 && options.authorizationModes[0] === 'AlwaysAllow';
  if (onlyAllowAll && abac === undefined && options.authorizationWebhook === undefined)
    return alwaysAllowAuthorizer;
  if (options.authorizationWebhook && !options.authorizationModes.includes('Webhook'))
    throw new Error('--authorization-webhook-config-file: cannot be specified without mode Webhook');
  return createModeAuthorizer({
    modes: options.authorizationModes,
    rbac: rbacAuthorizer,
    node,
    ...(abac ? { abac } : {}),
    ...(options.authorizationWebhook
      ? { webhook: flagWebhookAuthorizer(options.authorizationWebhook, options.flavor, log, gauges) }
      : {}),
  });
}

/**
 * Whether the server's own chain has the Node authorizer (from `--authorization-mode` or the
 * `--authorization-config` file as it was at start; a reload cannot add or remove it).
 */
export function authorizesNodes(options: ApiServerOptions): boolean {
  if (options.authorizer) return false;
  if (options.authorizationConfigFile !== undefined)
    return configuredTypes(options.authorizationConfigFile, options.flavor).includes('Node');
  return options.authorizationModes.includes('Node');
}

/** What `startServerAuthorization` hands the composition root. */
export interface StartedAuthorization {
  readonly authorization: ServerAuthorization;
  /** Resolves once the default policy is reconciled and the RBAC state loaded and aggregated. */
  readonly ready: Promise<void>;
  /** The authorizer for the request filter: until the RBAC state is loaded, decisions wait for it. */
  readonly requestAuthorizer: Authorizer;
}

/**
 * RBAC: once `started` (bootstrap objects) resolves, the default policy is reconciled, then the
 * evaluator is fed from the served objects, with ClusterRole aggregation after every ClusterRole
 * change. With mode `Node`, the node graph is fed from the Pod watch cache as well.
 */
export function startServerAuthorization(
  state: ServerState,
  rbac: RbacEvaluator,
  nodeGraph: NodeGraph,
  started: Promise<void>,
  signal: AbortSignal,
): StartedAuthorization {
  const { authorizer, flavor, log } = state;
  const aggregation = createAggregationController(state, signal);
  let informer: RbacInformer | undefined;
  let nodeInformer: CacheInformer | undefined;
  const ready = (async () => {
    await started;
    if (authorizesNodes(state.options)) nodeInformer = startNodeGraphInformer(state, nodeGraph, signal);
    await reconcileDefaultPolicy(state);
    informer = startRbacInformer(state, rbac, signal, {
      onClusterRoles: (all) => aggregation.changed(all),
    });
    await informer.synced;
    aggregation.changed(informer.clusterRoles);
    await aggregation.idle();
    await nodeInformer?.synced;
  })();
  let loaded = false;
  ready.then(
    () => {
      loaded = true;
    },
    (e) => log.error('RBAC start-up failed', e),
  );
  // Until the RBAC state is loaded a decision would see no bindings: requests wait for it.
  const requestAuthorizer: Authorizer =
    authorizer === alwaysAllowAuthorizer
      ? authorizer
      : {
          authorize: (a) => (loaded ? authorizer.authorize(a) : ready.then(() => authorizer.authorize(a))),
        };
  const authorization: ServerAuthorization = {
    authorizer,
    rbac,
    nodeGraph,
    async synced(revision) {
      await ready;
      if (revision !== undefined) await informer?.waitFor(revision);
      if (revision !== undefined) await nodeInformer?.waitFor(revision);
      await aggregation.idle();
      // Aggregation may have written ClusterRoles: wait for those writes too.
      if (revision !== undefined)
        await informer?.waitFor(
          state.watchCaches.for({ group: rbacGroup(flavor), resource: 'clusterroles' }).revision,
        );
    },
  };
  return { authorization, ready, requestAuthorizer };
}
