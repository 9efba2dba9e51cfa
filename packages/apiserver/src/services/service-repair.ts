import { type ApiObject, newUid, nowRfc3339 } from '@orchard/meta';
import { isStoreError } from '@orchard/store';
import type { ObjectStore } from '../storage/object-store.js';
import { isAllocationError } from './range-allocator.js';
import { heldValues, type ServiceAllocator } from './service-allocator.js';

/** Offsets found taken in the records but held by no stored Service, per range. */
export interface Leaks {
  readonly ips: ReadonlySet<number>;
  readonly ports: ReadonlySet<number>;
}

/** What a repair pass saw: the leaks to confirm next time, and Services whose values lie outside the ranges. */
export interface RepairResult {
  readonly leaks: Leaks;
  readonly outside: readonly string[];
}

/**
 * Upstream's service IP and node-port repair loops in one pass: reads every stored Service, marks
 * each value it holds taken (a record lost, or written for another range, is rebuilt from them),
 * and frees the values taken but held by no Service that were already found leaked by the
 * `previous` pass (so a value allocated by a create still in flight, on this server or another, is
 * never freed under it). The first pass after start frees nothing.
 */
export async function repairServiceAllocations(
  allocator: ServiceAllocator,
  objects: ObjectStore,
  previous?: Leaks,
): Promise<RepairResult> {
  const ips = new Set<number>();
  const ports = new Set<number>();
  const outside: string[] = [];
  const { kvs } = await objects.store.list(
    objects.prefix({ group: '', resource: 'services', namespace: '' }),
  );
  for (const kv of kvs) {
    let svc: ApiObject;
    try {
      svc = objects.decode(kv);
    } catch {
      continue;
    }
    const id = `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;
    const held = heldValues(svc);
    for (const ip of held.ips) {
      const o = allocator.ipOffset(ip);
      if (o === undefined) outside.push(`${id} cluster IP ${ip}`);
      else ips.add(o);
    }
    for (const p of held.ports) {
      const o = allocator.portOffset(p);
      if (o === undefined) outside.push(`${id} node port ${p}`);
      else ports.add(o);
    }
  }
  const leaks = async (taken: () => Promise<number[]>, held: Set<number>) => {
    try {
      return new Set((await taken()).filter((o) => !held.has(o)));
    } catch (e) {
      if (isAllocationError(e)) return new Set<number>();
      throw e;
    }
  };
  const ipLeaks = await leaks(() => allocator.ips.taken(), ips);
  const portLeaks = await leaks(() => allocator.ports.taken(), ports);
  const confirmed = (now: Set<number>, before: ReadonlySet<number> | undefined) =>
    [...now].filter((o) => before?.has(o) === true);
  const freeIps = confirmed(ipLeaks, previous?.ips);
  const freePorts = confirmed(portLeaks, previous?.ports);
  await allocator.ips.repair(ips, freeIps);
  await allocator.ports.repair(ports, freePorts);
  for (const o of freeIps) ipLeaks.delete(o);
  for (const o of freePorts) portLeaks.delete(o);
  return { leaks: { ips: ipLeaks, ports: portLeaks }, outside };
}

/** The `kubernetes` Service's port: upstream points it at the API server's secure port. */
export const kubernetesServicePort = { name: 'https', port: 443, targetPort: 6443 } as const;

/**
 * Creates `default/kubernetes` with the range's first IP, as upstream's API server does for
 * in-cluster clients; one that exists is left alone, and nothing is created while another
 * Service holds that IP.
 */
export async function ensureKubernetesService(
  allocator: ServiceAllocator,
  objects: ObjectStore,
): Promise<void> {
  const key = objects.key({ group: '', resource: 'services', namespace: 'default' }, 'kubernetes');
  if ((await objects.get(key)).object) return;
  try {
    await allocator.ips.allocate(0);
  } catch (e) {
    if (isAllocationError(e, 'Allocated')) return;
    throw e;
  }
  const ip = allocator.firstIp;
  try {
    await objects.create(key, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        uid: newUid(),
        creationTimestamp: nowRfc3339(),
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: {
        type: 'ClusterIP',
        clusterIP: ip,
        clusterIPs: [ip],
        ipFamilies: [allocator.o.ipRange.family],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
        sessionAffinity: 'None',
        ports: [{ ...kubernetesServicePort, protocol: 'TCP' }],
      },
      status: { loadBalancer: {} },
    });
  } catch (e) {
    await allocator.ips.release([0]);
    if (!isStoreError(e, 'AlreadyExists')) throw e;
  }
}
