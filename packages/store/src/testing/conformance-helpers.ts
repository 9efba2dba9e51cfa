import { expect } from 'vitest';
import type { KeyValue, Store, StoreEvent } from '../store.js';
import type { StoreConformanceOptions } from './store-conformance.js';

/** What each group of conformance tests is given: the store factory and the options with their defaults. */
export interface ConformanceSuite {
  /** A fresh, empty store. */
  makeStore(): Store | Promise<Store>;
  opts: StoreConformanceOptions & { createAll: boolean; manyKeys: number; heavyTimeoutMs: number };
}

const enc = new TextEncoder();
const dec = new TextDecoder();
/** A string as bytes. */
export const v = (s: string): Uint8Array => enc.encode(s);
/** Bytes as a string (undefined stays undefined). */
export const s = (b: Uint8Array | undefined): string | undefined => (b ? dec.decode(b) : undefined);

/** Whether two byte arrays hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first `count` events of a watch from `fromRevision` (the watch is then aborted). */
export async function collect(
  store: Store,
  prefix: string,
  fromRevision: number,
  count: number,
): Promise<StoreEvent[]> {
  const ac = new AbortController();
  const out: StoreEvent[] = [];
  if (count === 0) return out;
  for await (const e of store.watch(prefix, { fromRevision, signal: ac.signal })) {
    out.push(e);
    if (out.length >= count) break;
  }
  ac.abort();
  return out;
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** The error a watch fails with when it starts, if any (a backend may throw at iteration or at the first next()). */
export async function watchError(store: Store, prefix: string, fromRevision: number): Promise<unknown> {
  const ac = new AbortController();
  try {
    const it = store.watch(prefix, { fromRevision, signal: ac.signal })[Symbol.asyncIterator]();
    const first = it.next();
    ac.abort();
    await first;
    await it.return?.();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Asserts two key-values are the same version of the same key. */
export function same(a: KeyValue | undefined, b: KeyValue | undefined): void {
  expect(a).toBeDefined();
  expect(b).toBeDefined();
  expect([a!.key, a!.createRevision, a!.modRevision]).toEqual([b!.key, b!.createRevision, b!.modRevision]);
  expect(bytesEqual(a!.value, b!.value)).toBe(true);
}
