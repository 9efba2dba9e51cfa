import type { Etcd3 } from 'etcd3';
import { toStoreError } from './etcd-errors.js';
import type { EtcdKeyspace } from './etcd-keyspace.js';

/**
 * The compaction point as last learned (from this store's compactions, etcd's answers, or a probe),
 * and how to learn it again.
 */
export interface EtcdCompactionPoint {
  /** The remembered compaction point (0 before anything was learned). */
  readonly known: number;
  /** Learns the compaction point (from etcd when the remembered one is older than the TTL, or `force`). */
  learn(force: boolean): Promise<number>;
  /** Records a compaction point seen elsewhere (our own compaction, a refused watch); never moves back. */
  note(revision: number): void;
}

/** A compaction point tracker for one store; `ttlMs` is `compactedRevisionTtlMs`. */
export function createEtcdCompactionPoint(
  kv: Etcd3['kv'],
  ks: EtcdKeyspace,
  ttlMs: number,
): EtcdCompactionPoint {
  let compacted = 0;
  let compactedAt = 0;
  let probing: Promise<number> | undefined;

  /**
   * etcd reports no compaction point directly (a watch below it is refused only after it was
   * created), so find the oldest readable revision: a read below the point fails as compacted.
   * A binary search costs about log2(current revision) small reads.
   */
  async function probeCompactedRevision(): Promise<number> {
    const readable = async (rev: number): Promise<boolean> => {
      try {
        await kv.range({ key: ks.root, count_only: true, revision: rev });
        return true;
      } catch (e) {
        if (toStoreError(e)?.code === 'Compacted') return false;
        throw e;
      }
    };
    if (await readable(1)) return 0;
    let lo = 1; // not readable
    let hi = Number((await kv.range({ key: ks.root, count_only: true })).header.revision); // readable
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await readable(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  return {
    get known() {
      return compacted;
    },
    learn(force) {
      if (!force && Date.now() - compactedAt < ttlMs) return Promise.resolve(compacted);
      probing ??= (async () => {
        try {
          const rev = await probeCompactedRevision();
          compacted = Math.max(compacted, rev);
          compactedAt = Date.now();
          return compacted;
        } finally {
          probing = undefined;
        }
      })();
      return probing;
    },
    note(revision) {
      compacted = Math.max(compacted, revision);
      compactedAt = Date.now();
    },
  };
}
