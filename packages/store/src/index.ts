/**
 * @orchard/store — the versioned Store contract (etcd v3 MVCC semantics), the in-memory backend,
 * and `runStoreConformance()` (from `@orchard/store/testing`), the suite every backend passes.
 */

export type { StoreErrorCode } from './errors.js';
export { isStoreError, StoreError } from './errors.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { createMemoryStore, defaultMemoryStoreOptions } from './memory-store.js';
export { checkCompactRevision, compactedError, resolveReadRevision } from './read-revision.js';
export type {
  DeleteOptions,
  GetOptions,
  GetResult,
  KeyValue,
  ListOptions,
  ListResult,
  NewEntry,
  Store,
  StoreEvent,
  TryUpdate,
  WatchOptions,
  WriteOptions,
} from './store.js';
export { followStoreWatch, StoreWatcher } from './store-watcher.js';
export { currentForWrite } from './write-precondition.js';
