import { type ApiObject, nowRfc3339, type StoredObject } from '@orchard/meta';
import { fromBase64, hasBrand, toBase64 } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import type { ObjectStore } from '../storage/object-store.js';

/** Why an allocation failed: taken, exhausted, or (reported by the caller) outside the range. */
export type AllocationErrorCode = 'Allocated' | 'Full' | 'NotInRange' | 'Mismatched';

/** An allocation refused; `message` is upstream's allocator error text. */
export class AllocationError extends Error {
  readonly orchardAllocationError = true as const;
  constructor(
    readonly code: AllocationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AllocationError';
  }
}

/** Whether `e` is an `AllocationError` (of `code`, when given). */
export function isAllocationError(e: unknown, code?: AllocationErrorCode): e is AllocationError {
  return (
    hasBrand(e, 'orchardAllocationError') && (code === undefined || (e as AllocationError).code === code)
  );
}

/** What a `StoredRange` is built from. */
export interface StoredRangeOptions {
  readonly objects: ObjectStore;
  /** The store key of the allocation record (upstream: `/registry/ranges/serviceips`). */
  readonly key: string;
  /** The range's text form, kept in the record; a record of another range is refused until repaired. */
  readonly range: string;
  readonly size: number;
  /** Offsets `allocateNext` never hands out (the first service IP, kept for the `kubernetes` Service). */
  readonly reserved?: readonly number[];
  /** Upstream's wording of a taken value ("provided IP is already allocated"). */
  readonly allocatedMessage: string;
  /** Offsets below this are the static band: `allocateNext` takes them only when the rest is full. */
  readonly staticBand?: number;
  /** Random source in [0, 1) for the first offset tried; default `Math.random`. */
  readonly random?: () => number;
}

/**
 * A bitmap of `size` offsets kept in ONE store record (upstream's `RangeAllocation`: `range` plus
 * `data`), changed only by compare-and-swap, so servers sharing a store never hand out the same
 * offset: the loser of a race re-reads the record and picks again (or fails "already allocated").
 */
export class StoredRange {
  private readonly reserved: ReadonlySet<number>;

  constructor(private readonly o: StoredRangeOptions) {
    this.reserved = new Set(o.reserved ?? []);
  }

  get size(): number {
    return this.o.size;
  }

  /** Upstream's wording of a taken value. */
  get allocatedMessage(): string {
    return this.o.allocatedMessage;
  }

  /** Marks `offset` taken; `Allocated` when it already is. */
  async allocate(offset: number): Promise<void> {
    await this.change((bits) => {
      if (testBit(bits, offset)) throw new AllocationError('Allocated', this.o.allocatedMessage);
      setBit(bits, offset, true);
    });
  }

  /**
   * Takes a free offset, as upstream: above the static band from a random start, then the next free
   * one, wrapping; then the same within the band; `Full` when none is left.
   */
  async allocateNext(): Promise<number> {
    let chosen = -1;
    await this.change((bits) => {
      chosen = this.findFree(bits);
      if (chosen < 0) throw new AllocationError('Full', 'range is full');
      setBit(bits, chosen, true);
    });
    return chosen;
  }

  /** The offset `allocateNext` could take now, without taking it (dry-run); `Full` when none. */
  async peekNext(): Promise<number> {
    const free = this.findFree(await this.read());
    if (free < 0) throw new AllocationError('Full', 'range is full');
    return free;
  }

  /** Whether `offset` is taken. */
  async has(offset: number): Promise<boolean> {
    return testBit(await this.read(), offset);
  }

  /** Frees offsets; freeing a free one is a no-op. */
  async release(offsets: readonly number[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.change((bits) => {
      for (const o of offsets) setBit(bits, o, false);
    });
  }

  /** Every taken offset. */
  async taken(): Promise<number[]> {
    const bits = await this.read();
    const out: number[] = [];
    // Byte by byte: the service IP range has ~a million offsets, mostly in empty bytes (or past the
    // end of a short record), and a bit-by-bit walk was ~1 ms of a first start's CPU profile.
    const size = this.o.size;
    const end = Math.min(bits.length, Math.ceil(size / 8));
    for (let i = 0; i < end; i++) {
      if (bits[i] === 0) continue;
      for (let o = i * 8; o < Math.min(i * 8 + 8, size); o++) if (testBit(bits, o)) out.push(o);
    }
    return out;
  }

  /**
   * Repair: marks every offset of `inUse` taken and frees those `free` names; a record of another
   * range (the flag changed) or an undecodable one is replaced by `inUse` alone.
   */
  async repair(inUse: Iterable<number>, free: readonly number[] = []): Promise<void> {
    const want = [...inUse];
    await this.change(
      (bits) => {
        for (const o of free) setBit(bits, o, false);
        for (const o of want) setBit(bits, o, true);
      },
      { replaceForeign: true },
    );
  }

  private findFree(bits: Uint8Array): number {
    const band = Math.min(this.o.staticBand ?? 0, this.o.size);
    const upper = this.findFreeIn(bits, band, this.o.size);
    return upper >= 0 ? upper : this.findFreeIn(bits, 0, band);
  }

  /** A free offset in [from, to), scanning from a random start and wrapping; -1 when none. */
  private findFreeIn(bits: Uint8Array, from: number, to: number): number {
    const width = to - from;
    if (width <= 0) return -1;
    const start = Math.floor((this.o.random ?? Math.random)() * width) % width;
    for (let i = 0; i < width; i++) {
      const o = from + ((start + i) % width);
      if (!this.reserved.has(o) && !testBit(bits, o)) return o;
    }
    return -1;
  }

  private async read(): Promise<Uint8Array> {
    const { object } = await this.o.objects.get(this.o.key);
    return object ? this.bitsOf(object, false) : emptyBits(this.o.size);
  }

  private bitsOf(record: StoredObject, replaceForeign: boolean): Uint8Array {
    const r = record as { range?: unknown; data?: unknown };
    if (r.range !== this.o.range || typeof r.data !== 'string') {
      if (replaceForeign) return emptyBits(this.o.size);
      throw new AllocationError(
        'Mismatched',
        `the allocation record holds the range ${String(r.range)}, not ${this.o.range}: not repaired yet`,
      );
    }
    const bits = emptyBits(this.o.size);
    const data = fromBase64(r.data);
    if (data) bits.set(data.subarray(0, bits.length));
    else if (!replaceForeign) throw new AllocationError('Mismatched', 'the allocation record is undecodable');
    return bits;
  }

  private record(bits: Uint8Array, created?: string): ApiObject {
    return {
      apiVersion: 'v1',
      kind: 'RangeAllocation',
      metadata: { name: this.o.key.split('/').at(-1) ?? '', creationTimestamp: created ?? nowRfc3339() },
      range: this.o.range,
      data: toBase64(bits),
    };
  }

  /** One compare-and-swap change of the bitmap (the record is created on first use). */
  private async change(edit: (bits: Uint8Array) => void, opts: { replaceForeign?: boolean } = {}) {
    const { objects, key } = this.o;
    for (let attempt = 0; attempt < 3; attempt++) {
      const { object } = await objects.get(key);
      if (!object) {
        const bits = emptyBits(this.o.size);
        edit(bits);
        try {
          await objects.create(key, this.record(bits));
          return;
        } catch (e) {
          if (isStoreError(e, 'AlreadyExists')) continue;
          throw e;
        }
      }
      try {
        await objects.update(key, (current) => {
          const bits = this.bitsOf(current, opts.replaceForeign === true);
          edit(bits);
          return this.record(bits, current.metadata.creationTimestamp ?? undefined);
        });
        return;
      } catch (e) {
        if (isStoreError(e, 'NotFound')) continue;
        throw e;
      }
    }
    throw new Error(`allocation record ${key}: created and deleted concurrently, giving up`);
  }
}

function emptyBits(size: number): Uint8Array {
  return new Uint8Array(Math.ceil(size / 8));
}

function testBit(bits: Uint8Array, o: number): boolean {
  return ((bits[o >> 3] ?? 0) & (1 << (o & 7))) !== 0;
}

function setBit(bits: Uint8Array, o: number, on: boolean): void {
  const i = o >> 3;
  if (i >= bits.length) return;
  bits[i] = on ? (bits[i] as number) | (1 << (o & 7)) : (bits[i] as number) & ~(1 << (o & 7));
}
