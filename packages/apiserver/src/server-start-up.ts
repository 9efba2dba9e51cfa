import { startCrdController } from './crd/controller.js';
import type { HealthChecks } from './health/health.js';
import { builtinObjects, createBootstrapObjects } from './registry/builtin/bootstrap.js';
import type { ResourceRegistry } from './registry/registry.js';
import { startServiceAllocation } from './services/service-allocation.js';
import type { ServerState } from './state.js';

/** Whether this server serves CustomResourceDefinitions (and so runs the CRD controller). */
function servesCrds(registry: ResourceRegistry, state: Pick<ServerState, 'flavor'>): boolean {
  return registry.get(state.flavor.group('apiextensions'), 'customresourcedefinitions') !== undefined;
}

/**
 * Registers the server's start-up work as `/readyz` post-start hooks, under upstream's hook names:
 * `bootstrap-controller`, `rbac/bootstrap-roles` and, when CRDs are served,
 * `start-apiextensions-controllers`.
 */
export function addStartUpHooks(health: HealthChecks, state: Pick<ServerState, 'flavor' | 'registry'>): void {
  health.addHook('bootstrap-controller');
  health.addHook('rbac/bootstrap-roles');
  if (servesCrds(state.registry, state)) health.addHook('start-apiextensions-controllers');
}

/**
 * The server's start-up work: the bootstrap objects (default namespaces), Service IP and port
 * allocation, then the CRD controller; each completes its hook. Resolves when all are done.
 */
export async function runStartUp(state: ServerState): Promise<void> {
  const { options, objects, registry, flavor, serviceAllocator, health, log } = state;
  if (options.createDefaultNamespaces)
    await createBootstrapObjects(objects, registry, builtinObjects(flavor));
  if (serviceAllocator)
    await startServiceAllocation(serviceAllocator, objects, flavor, options.createDefaultNamespaces, (m) =>
      log.info(m),
    );
  health.completeHook('bootstrap-controller');
  if (servesCrds(registry, state)) {
    await startCrdController(state, state.closing);
    health.completeHook('start-apiextensions-controllers');
  }
}
