import { StoreError } from './errors.js';

/**
 * The revision a read at `atRevision` is served at, as every backend resolves it: unset or 0 means
 * the current revision; below the compacted revision is `Compacted` (the server's 410), above the
 * current one `FutureRevision` (the server's wait-then-504). Both errors carry the bound they hit.
 */
export function resolveReadRevision(
  atRevision: number | undefined,
  current: number,
  compacted: number,
): number {
  if (atRevision === undefined || atRevision === 0) return current;
  if (atRevision < compacted) throw compactedError(atRevision, compacted);
  if (atRevision > current) {
    throw new StoreError(
      'FutureRevision',
      `revision ${atRevision} is newer than current ${current}`,
      undefined,
      current,
    );
  }
  return atRevision;
}

/**
 * Refuses a compaction beyond the current revision (`FutureRevision`, carrying the current one), as
 * every backend does.
 */
export function checkCompactRevision(revision: number, current: number): void {
  if (revision > current) {
    throw new StoreError(
      'FutureRevision',
      `cannot compact to ${revision} beyond current ${current}`,
      undefined,
      current,
    );
  }
}

/**
 * The `Compacted` error of a read or watch from `revision` below the compacted revision `compacted`
 * (the server's 410 Expired), carrying the bound so clients can relist from it.
 */
export function compactedError(revision: number, compacted: number): StoreError {
  return new StoreError(
    'Compacted',
    `required revision ${revision} has been compacted (compacted at ${compacted})`,
    undefined,
    compacted,
  );
}
