import { describe } from 'vitest';
import type { Store } from '../store.js';
import { conformanceCompaction } from './conformance-compaction.js';
import type { ConformanceSuite } from './conformance-helpers.js';
import { conformanceLifecycle } from './conformance-lifecycle.js';
import { conformanceReads } from './conformance-reads.js';
import { conformanceScale } from './conformance-scale.js';
import { conformanceWatch } from './conformance-watch.js';
import { conformanceWrites } from './conformance-writes.js';

/**
 * What the suite may assume of a backend beyond the Store interface. Each capability is stated, never
 * skipped silently: a backend without durability says so, and the suite then checks only what a
 * non-durable store promises at close.
 */
export interface StoreConformanceOptions {
  /**
   * `{ durable: true, reopen }`: `reopen(closed)` opens a new Store on the data the closed store held
   * (same file, same etcd prefix); the suite checks that everything survives. `{ durable: false }`:
   * data lives only as long as the Store object (the memory backend); the suite checks that a closed
   * store refuses writes instead.
   */
  durability: { durable: true; reopen(closed: Store): Promise<Store> } | { durable: false };
  /**
   * Whether the backend implements the optional `createAll` (then the suite checks its contract:
   * consecutive revisions in order, one event each, all or nothing). Default false: the suite checks
   * that it is absent, so a caller falls back to creates.
   */
  createAll?: boolean;
  /** Keys written by the large-keyspace test. Default 100_000. */
  manyKeys?: number;
  /** Timeout in ms of each heavy test (large keyspace, large values, concurrency). Default 60_000. */
  heavyTimeoutMs?: number;
}

/** Defaults of the conformance suite: key count of the heavy cases and their timeout. */
export const defaultStoreConformanceOptions: Readonly<Required<Omit<StoreConformanceOptions, 'durability'>>> =
  Object.freeze({ createAll: false, manyKeys: 100_000, heavyTimeoutMs: 60_000 });

/**
 * The suite every Store backend must pass. Call it from a test file with a factory that returns a
 * fresh, empty store, and the backend's capabilities:
 * `runStoreConformance('memory', () => createMemoryStore(), { durability: { durable: false } })`.
 */
export function runStoreConformance(
  name: string,
  makeStore: () => Store | Promise<Store>,
  options: StoreConformanceOptions,
): void {
  const opts = { ...defaultStoreConformanceOptions, ...options };
  const suite: ConformanceSuite = { makeStore, opts };
  describe(`Store conformance: ${name}`, () => {
    conformanceWrites(suite);
    conformanceReads(suite);
    conformanceWatch(suite);
    conformanceCompaction(suite);
    conformanceScale(suite);
    conformanceLifecycle(suite);
  });
}
