import { isStoreError, StoreError } from '@orchard/store';
import type { Etcd3 } from 'etcd3';
import type { EtcdCompactionPoint } from './etcd-compaction.js';
import { toStoreError } from './etcd-errors.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/** gRPC's words for a call that was never sent: no connection to the member, or its circuit open. */
const notSent = /No connection established|ECONNREFUSED|circuit breaker is open/;

/** How the store runs its calls to etcd: errors mapped to StoreErrors, reads retried, writes only when unsent. */
export interface EtcdCalls {
  /** Throws `Unavailable` once the store is closed. */
  live(): void;
  /** One attempt; errors become StoreErrors (Compacted/FutureRevision with their revision). */
  call<T>(fn: () => Promise<T>, key?: string): Promise<T>;
  /**
   * A write: repeated on another member only when the failed attempt never reached one (no
   * connection, or the member was set aside), since then it cannot have committed.
   */
  write<T>(fn: () => Promise<T>, key?: string): Promise<T>;
  /**
   * A read: safe to repeat, so a lost member is retried on the others (each try picks a member the
   * circuit breaker has not set aside). Writes are never repeated: the first attempt may have committed.
   */
  read<T>(fn: () => Promise<T>, key?: string): Promise<T>;
  /** The StoreError an error from etcd means (unchanged when it is one already or has no mapping). */
  mapError(e: unknown, key?: string): Promise<unknown>;
  /** The cluster's current revision, from a linearizable read of one key. */
  currentRevision(): Promise<number>;
}

/** The call runner of one store: `isClosed` reports whether the store was closed, `endpoints` bounds the retries. */
export function createEtcdCalls(args: {
  kv: Etcd3['kv'];
  keyspace: EtcdKeyspace;
  endpoints: number;
  compaction: EtcdCompactionPoint;
  isClosed(): boolean;
}): EtcdCalls {
  const { kv, keyspace: ks, endpoints, compaction, isClosed } = args;

  function live(): void {
    if (isClosed()) throw new StoreError('Unavailable', 'etcd store is closed');
  }

  async function call<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    live();
    try {
      return await fn();
    } catch (e) {
      throw await mapError(e, key);
    }
  }

  async function write<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(fn, key);
      } catch (e) {
        const unsent = isStoreError(e, 'Unavailable') && notSent.test(e.message);
        if (!unsent || attempt >= endpoints || isClosed()) throw e;
      }
    }
  }

  async function read<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(fn, key);
      } catch (e) {
        if (!isStoreError(e, 'Unavailable') || attempt >= endpoints || isClosed()) throw e;
      }
    }
  }

  async function mapError(e: unknown, key?: string): Promise<unknown> {
    if (isStoreError(e)) return e;
    const mapped = toStoreError(e, key);
    if (!mapped) return e;
    if (mapped.code === 'Compacted') {
      const rev = await compaction.learn(true).catch(() => compaction.known);
      return new StoreError('Compacted', mapped.message, key, rev);
    }
    if (mapped.code === 'FutureRevision') {
      const rev = await currentRevision().catch(() => undefined);
      return new StoreError('FutureRevision', mapped.message, key, rev);
    }
    return mapped;
  }

  async function currentRevision(): Promise<number> {
    // A linearizable read of one key: its header carries the cluster's current revision.
    const res = await read(() => kv.range({ key: ks.root, count_only: true }));
    return Number(res.header.revision);
  }

  return { live, call, write, read, mapError, currentRevision };
}
