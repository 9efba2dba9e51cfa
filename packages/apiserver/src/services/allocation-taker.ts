import { errors } from '@orchard/meta';
import { AllocationError, isAllocationError, type StoredRange } from './range-allocator.js';

/** How one allocation pass takes values: at once, as a dry-run check, or from a reservation. */
export interface Taker {
  /** Any free offset; a full range is upstream's 500 `<what>: range is full`. */
  next(range: StoredRange, what: string): Promise<number>;
  /** The requested offset; taken is `fail(message)` (upstream's 422). */
  take(range: StoredRange, offset: number, fail: (why: string) => Error): Promise<void>;
}

async function allocateNext(range: StoredRange, what: string, dryRun: boolean): Promise<number> {
  try {
    return dryRun ? await range.peekNext() : await range.allocateNext();
  } catch (e) {
    if (isAllocationError(e)) throw errors.internal(`${what}: ${e.message}`);
    throw e;
  }
}

async function allocate(
  range: StoredRange,
  offset: number,
  fail: (why: string) => Error,
  dryRun: boolean,
): Promise<void> {
  try {
    if (dryRun) {
      if (await range.has(offset)) throw new AllocationError('Allocated', range.allocatedMessage);
    } else await range.allocate(offset);
  } catch (e) {
    if (isAllocationError(e, 'Allocated')) throw fail(e.message);
    if (isAllocationError(e)) throw errors.internal(e.message);
    throw e;
  }
}

/** Takes values in the store at once (a create), or only checks them (`dryRun`); `undo` gives them back. */
export class DirectTaker implements Taker {
  private readonly taken = new Map<StoredRange, number[]>();

  constructor(private readonly dryRun: boolean) {}

  async next(range: StoredRange, what: string): Promise<number> {
    const o = await allocateNext(range, what, this.dryRun);
    if (!this.dryRun) this.record(range, o);
    return o;
  }

  async take(range: StoredRange, offset: number, fail: (why: string) => Error): Promise<void> {
    await allocate(range, offset, fail, this.dryRun);
    if (!this.dryRun) this.record(range, offset);
  }

  private record(range: StoredRange, o: number) {
    this.taken.set(range, [...(this.taken.get(range) ?? []), o]);
  }

  async undo(): Promise<void> {
    for (const [range, offsets] of this.taken) await range.release(offsets.splice(0));
  }
}

/**
 * Values taken for one update before its compare-and-swap: the steps of an update run under the
 * store's write lock, where no other key may be written, so a pass that needs a value it does not
 * hold records the need, the handler takes them outside the lock (`fill`) and runs the steps again.
 */
export class Reservation {
  private readonly held = new Map<StoredRange, Set<number>>();
  private readonly pools = new Map<StoredRange, number[]>();
  /** What the last complete pass used. */
  used = new Map<StoredRange, Set<number>>();
  private needs: { range: StoredRange; offset?: number; what: string; fail?: (why: string) => Error }[] = [];

  /** A taker for one pass; `missing()` after the pass says whether it needs `fill`. */
  taker(): Taker & { missing(): boolean; finishPass(): void } {
    const used = new Map<StoredRange, Set<number>>();
    const use = (range: StoredRange, o: number) => used.set(range, (used.get(range) ?? new Set()).add(o));
    const needs: typeof this.needs = [];
    return {
      next: async (range, what) => {
        const free = (this.pools.get(range) ?? []).find((o) => !used.get(range)?.has(o));
        if (free !== undefined) {
          use(range, free);
          return free;
        }
        needs.push({ range, what });
        return 0;
      },
      take: async (range, offset, fail) => {
        if (this.held.get(range)?.has(offset)) use(range, offset);
        else needs.push({ range, offset, what: '', fail });
      },
      missing: () => {
        this.needs = needs;
        return needs.length > 0;
      },
      finishPass: () => {
        this.used = used;
      },
    };
  }

  /** Takes what the last pass missed (outside the store's write lock). */
  async fill(): Promise<void> {
    for (const n of this.needs.splice(0)) {
      if (n.offset === undefined) {
        const o = await allocateNext(n.range, n.what, false);
        this.pools.set(n.range, [...(this.pools.get(n.range) ?? []), o]);
      } else if (!this.held.get(n.range)?.has(n.offset)) {
        await allocate(n.range, n.offset, n.fail ?? ((why) => errors.internal(why)), false);
      }
      if (n.offset !== undefined) this.held.set(n.range, (this.held.get(n.range) ?? new Set()).add(n.offset));
    }
  }

  /** After the update: keeps what the stored object uses (`persisted`), gives back the rest. */
  async finish(persisted: boolean): Promise<void> {
    const all = new Map<StoredRange, Set<number>>();
    for (const [r, s] of this.held) all.set(r, new Set(s));
    for (const [r, p] of this.pools) for (const o of p) all.set(r, (all.get(r) ?? new Set()).add(o));
    for (const [range, offsets] of all) {
      const keep = persisted ? (this.used.get(range) ?? new Set()) : new Set<number>();
      await range.release([...offsets].filter((o) => !keep.has(o)));
    }
  }
}
