import type { DeleteOptions, KeyValue, Store, StoreEvent, TryUpdate, WriteOptions } from '@orchard/store';
import { isTransformError, type ValueTransformer } from './value-transformer.js';

/** Picks the transformer of a key; `undefined` leaves that key's values as they are. */
export type TransformerForKey = (key: string) => ValueTransformer | undefined;

/**
 * Wraps any `Store` so values are transformed (encrypted) on the way in and back on the way out,
 * below every layer that reads objects, so memory, SQLite and etcd behave alike. Keys, revisions,
 * CAS, watch order and compaction are the inner store's, untouched: a transformed write is one
 * write with one revision.
 *
 * Reads never throw for a value that does not transform back: the key-value comes up with its raw
 * bytes and `transformError` set (`stale` when a non-first provider or key read it), so the layer
 * that decodes objects reports that one object as unreadable while the rest of a list, a watch or
 * a watch cache keeps working. `update`'s `tryUpdate` and `delete`'s `check` see the transformed
 * current value (with the same marks); the key-value `update`/`create` resolve to carries the
 * plaintext just written.
 */
export function createTransformingStore(inner: Store, transformerFor: TransformerForKey): Store {
  // Lazy: a watch event reaches every watcher of its prefix (the server's caches all watch '/'
  // for progress), and most never look at the value; each value is decrypted once, when first read.
  const fromStorage = (kv: KeyValue): KeyValue => {
    const t = transformerFor(kv.key);
    return t ? new TransformedKeyValue(kv, t) : kv;
  };
  const toStorage = (key: string, value: Uint8Array): Uint8Array => {
    const t = transformerFor(key);
    return t ? t.toStorage(value, key) : value;
  };
  const fromEvent = (ev: StoreEvent): StoreEvent =>
    ev.prevKv
      ? { type: ev.type, kv: fromStorage(ev.kv), prevKv: fromStorage(ev.prevKv), revision: ev.revision }
      : { type: ev.type, kv: fromStorage(ev.kv), revision: ev.revision };
  const { createAll } = inner;
  return {
    ...(createAll && {
      async createAll(entries) {
        const kvs = await createAll.call(
          inner,
          entries.map((e) => ({ key: e.key, value: toStorage(e.key, e.value) })),
        );
        return kvs.map((kv, i) => ({ ...plain(kv), value: entries[i]!.value }));
      },
    }),
    currentRevision: () => inner.currentRevision(),
    compactedRevision: () => inner.compactedRevision(),
    async get(key, options) {
      const r = await inner.get(key, options);
      return r.kv ? { kv: fromStorage(r.kv), revision: r.revision } : r;
    },
    async list(prefix, options) {
      const r = await inner.list(prefix, options);
      return { kvs: r.kvs.map(fromStorage), revision: r.revision, remaining: r.remaining };
    },
    async create(key, value) {
      const kv = await inner.create(key, toStorage(key, value));
      return { ...plain(kv), value };
    },
    async update(key: string, tryUpdate: TryUpdate, options?: WriteOptions) {
      let written: Uint8Array | undefined;
      const kv = await inner.update(
        key,
        async (current) => {
          written = await tryUpdate(fromStorage(current));
          return toStorage(key, written);
        },
        options,
      );
      return { ...plain(kv), value: written ?? kv.value };
    },
    async delete(key: string, options: DeleteOptions = {}) {
      const { check, ...rest } = options;
      const kv = await inner.delete(key, check ? { ...rest, check: (cur) => check(fromStorage(cur)) } : rest);
      return fromStorage(kv);
    },
    watch(prefix, options) {
      // A plain mapping iterator, not an async generator: every event passes through every watcher.
      const events = inner.watch(prefix, options);
      return {
        [Symbol.asyncIterator](): AsyncIterator<StoreEvent> {
          const it = events[Symbol.asyncIterator]();
          return {
            next: () => it.next().then((r) => (r.done ? r : { done: false, value: fromEvent(r.value) })),
            return: (v?: unknown) =>
              it.return ? it.return(v) : Promise.resolve({ done: true, value: undefined }),
          };
        },
      };
    },
    compact: (revision) => inner.compact(revision),
    close: () => inner.close(),
  };
}

/** The revision fields of a key-value, without any mark an inner wrapper set. */
function plain(kv: KeyValue): KeyValue {
  return { key: kv.key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision };
}

/** A stored key-value whose value is transformed back on first access (then kept). */
class TransformedKeyValue implements KeyValue {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  #stored: Uint8Array;
  #transformer: ValueTransformer | undefined;
  #value: Uint8Array | undefined;
  #stale: true | undefined;
  #transformError: string | undefined;

  constructor(kv: KeyValue, transformer: ValueTransformer) {
    this.key = kv.key;
    this.createRevision = kv.createRevision;
    this.modRevision = kv.modRevision;
    this.#stored = kv.value;
    this.#transformer = transformer;
  }

  #resolve(): void {
    const t = this.#transformer;
    if (!t) return;
    this.#transformer = undefined;
    try {
      const r = t.fromStorage(this.#stored, this.key);
      this.#value = r.value;
      if (r.stale) this.#stale = true;
    } catch (e) {
      if (!isTransformError(e)) throw e;
      this.#value = this.#stored;
      this.#transformError = e.message;
    }
  }

  get value(): Uint8Array {
    this.#resolve();
    return this.#value as Uint8Array;
  }

  get stale(): true | undefined {
    this.#resolve();
    return this.#stale;
  }

  get transformError(): string | undefined {
    this.#resolve();
    return this.#transformError;
  }
}
