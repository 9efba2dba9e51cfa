import type { Flavor } from '@orchard/meta';
import type { WritePipeline } from '../handlers/write-pipeline.js';
import type { ApiServerOptions } from '../options.js';
import type { ResourceRegistry } from '../registry/registry.js';
import type { ObjectStore } from '../storage/object-store.js';
import { parsePortRange, parseServiceIpRange } from './ip-range.js';
import { serviceAllocationStep } from './service-allocation-step.js';
import { ServiceAllocator } from './service-allocator.js';
import { ensureKubernetesService, repairServiceAllocations } from './service-repair.js';

/**
 * Builds the Service allocator of a server (undefined when core `services` is not served) and
 * installs the `service-allocation` write step after `rbac-escalation`. Bad ranges throw, naming the flag.
 */
export function installServiceAllocation(
  options: Pick<ApiServerOptions, 'serviceClusterIpRange' | 'serviceNodePortRange'>,
  objects: ObjectStore,
  registry: ResourceRegistry,
  pipeline: WritePipeline,
): ServiceAllocator | undefined {
  const ipRange = parseServiceIpRange(options.serviceClusterIpRange);
  const portRange = parsePortRange(options.serviceNodePortRange);
  if (!registry.get('', 'services')) return undefined;
  const allocator = new ServiceAllocator({ objects, ipRange, portRange });
  // Last before `version-out`: a write refused by validation or the escalation check takes nothing.
  const anchor = pipeline.names().includes('rbac-escalation') ? 'rbac-escalation' : 'validation';
  pipeline.insertAfter(
    anchor,
    serviceAllocationStep(() => allocator),
  );
  return allocator;
}

/**
 * The start-up half: the first repair pass (allocation records rebuilt or completed from the stored
 * Services), then, under the kubernetes flavor with default namespaces, the `kubernetes` Service.
 * Allocations wait for it.
 */
export function startServiceAllocation(
  allocator: ServiceAllocator,
  objects: ObjectStore,
  flavor: Flavor,
  createDefaultObjects: boolean,
  log: (message: string) => void,
): Promise<void> {
  return allocator.start(async () => {
    const r = await repairServiceAllocations(allocator, objects);
    for (const o of r.outside) log(`service allocation repair: ${o} is outside the configured range`);
    if (flavor.name === 'kubernetes' && createDefaultObjects)
      await ensureKubernetesService(allocator, objects);
  });
}
