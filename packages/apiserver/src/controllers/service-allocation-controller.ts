import { type HeldValues, heldValues, type ServiceAllocator } from '../services/service-allocator.js';
import { type Leaks, repairServiceAllocations } from '../services/service-repair.js';
import type { ServerState } from '../state.js';
import type { ObservingController } from './service-account-controller.js';

/**
 * Gives back what Services stop holding: every cluster IP and node port of a deleted Service, and
 * those an update dropped (a type change, a removed port), found by comparing each Service with its
 * last observed state; a value still held by another observed Service is kept. Also runs the
 * allocation repair every `serviceAllocationRepairIntervalMs` (upstream's repair loops, 3 minutes),
 * which frees values leaked by a server that died between allocating and storing.
 */
export function createServiceAllocationController(
  state: ServerState,
  allocator: ServiceAllocator,
): ObservingController {
  const known = new Map<string, HeldValues>();
  let chain: Promise<void> = Promise.resolve();
  let previous: Leaks | undefined;
  let stopped = false;

  const stillHeld = (ip: string | undefined, port: number | undefined) => {
    for (const h of known.values())
      if ((ip !== undefined && h.ips.includes(ip)) || (port !== undefined && h.ports.includes(port)))
        return true;
    return false;
  };
  const release = (gone: HeldValues) => {
    const ips = gone.ips.filter((ip) => !stillHeld(ip, undefined)).map((ip) => allocator.ipOffset(ip));
    const ports = gone.ports.filter((p) => !stillHeld(undefined, p)).map((p) => allocator.portOffset(p));
    const ipOffsets = ips.filter((o): o is number => o !== undefined);
    const portOffsets = ports.filter((o): o is number => o !== undefined);
    if (ipOffsets.length === 0 && portOffsets.length === 0) return;
    chain = chain
      .then(async () => {
        await allocator.ready;
        await allocator.ips.release(ipOffsets);
        await allocator.ports.release(portOffsets);
      })
      .catch((e) => state.log.error('service allocation controller: release failed', e));
  };
  const repair = () => {
    chain = chain
      .then(async () => {
        await allocator.ready;
        const r = await repairServiceAllocations(allocator, state.objects, previous);
        previous = r.leaks;
        for (const o of r.outside)
          state.log.info(`service allocation repair: ${o} is outside the configured range`);
      })
      .catch((e) => state.log.error('service allocation repair failed', e));
  };
  const interval = state.options.serviceAllocationRepairIntervalMs;
  const timer = interval > 0 ? setInterval(() => stopped || repair(), interval) : undefined;
  timer?.unref?.();

  return {
    observe(ev) {
      if (ev.group !== '' || ev.resource !== 'services') return;
      const before = known.get(ev.key);
      if (ev.type === 'delete') {
        known.delete(ev.key);
        const last = heldValues(ev.object);
        release({
          ips: [...new Set([...(before?.ips ?? []), ...last.ips])],
          ports: [...new Set([...(before?.ports ?? []), ...last.ports])],
        });
        return;
      }
      const now = heldValues(ev.object);
      known.set(ev.key, now);
      if (before)
        release({
          ips: before.ips.filter((ip) => !now.ips.includes(ip)),
          ports: before.ports.filter((p) => !now.ports.includes(p)),
        });
    },
    idle: () => chain,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await chain;
    },
  };
}
