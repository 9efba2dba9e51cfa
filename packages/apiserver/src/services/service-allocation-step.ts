import type { RequestContext } from '../context.js';
import { DeferredWriteWork, type WriteRequest, type WriteStep } from '../handlers/write-pipeline.js';
import { Reservation } from './allocation-taker.js';
import type { ServiceAllocator } from './service-allocator.js';

/**
 * The `service-allocation` write step (after `validation` and `rbac-escalation`): a core `services` create takes its
 * cluster IP and node ports, an update the ones it adds, from `allocator` (upstream's Service REST
 * `BeginCreate`/`BeginUpdate`). A create takes them at once and gives them back through the
 * write's `undo` when it is not persisted; an update, whose steps run under the store's write lock,
 * takes them through a `Reservation` filled between compare-and-swap rounds (`DeferredWriteWork`).
 * What an update or delete gives up is released by the allocation controller. Dry-run only checks.
 */
export function serviceAllocationStep(allocator: () => ServiceAllocator | undefined): WriteStep {
  const reservations = new WeakMap<RequestContext, Reservation>();
  const allocate = async (w: WriteRequest): Promise<void> => {
    const a = allocator();
    if (!a) return;
    await a.ready;
    const name = w.obj.metadata?.name ?? w.name;
    if (w.old === undefined || w.dryRun) {
      const undo = await a.allocateNew(w.obj, name, w.dryRun);
      w.undo = [...(w.undo ?? []), undo];
      return;
    }
    let reservation = reservations.get(w.ctx);
    if (!reservation) {
      reservation = new Reservation();
      reservations.set(w.ctx, reservation);
    }
    const taker = reservation.taker();
    await a.allocate(w.obj, name, w.old, taker);
    if (taker.missing()) {
      const r = reservation;
      throw new DeferredWriteWork(
        () => r.fill(),
        (persisted) => r.finish(persisted),
      );
    }
    taker.finishPass();
  };
  return {
    name: 'service-allocation',
    operations: ['create', 'update', 'patch'],
    // Synchronous for every other type: no promise on the write path of a type it does not touch.
    run: (w) =>
      w.def.group !== '' || w.def.resource !== 'services' || w.ctx.info.subresource !== ''
        ? undefined
        : allocate(w),
  };
}
