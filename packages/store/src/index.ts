/**
 * @orchard/store — the versioned Store contract (etcd v3 MVCC semantics), the in-memory backend,
 * and `runStoreConformance()` (from `@orchard/store/testing`), the suite every backend passes.
 */
export type {
  KeyValue,
  StoreEvent,
  GetOptions,
  GetResult,
  ListOptions,
  ListResult,
  WriteOptions,
  DeleteOptions,
  WatchOptions,
  TryUpdate,
  Store,
} from './store.js';
export type { StoreErrorCode } from './errors.js';
export { StoreError, isStoreError } from './errors.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { createMemoryStore, defaultMemoryStoreOptions } from './memory-store.js';
