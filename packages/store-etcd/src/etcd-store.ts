import {
  currentForWrite,
  type DeleteOptions,
  type GetOptions,
  type GetResult,
  isStoreError,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type Store,
  StoreError,
  type StoreEvent,
  StoreWatcher,
  type TryUpdate,
  type WatchOptions,
  type WriteOptions,
} from '@orchard/store';
import type { Etcd3 } from 'etcd3';
import { createEtcdCalls } from './etcd-calls.js';
import { createEtcdClient } from './etcd-client.js';
import { createEtcdCompactionPoint } from './etcd-compaction.js';
import { createEtcdKeyspace, type EtcdKeyspace } from './etcd-keyspace.js';
import { defaultEtcdStoreOptions, type EtcdStoreOptions } from './etcd-store-options.js';
import { openEtcdWatch } from './etcd-watch.js';
import { EtcdWatchHub } from './etcd-watch-hub.js';

export { defaultEtcdStoreOptions, type EtcdStoreOptions } from './etcd-store-options.js';

/** An etcd-backed Store, with the client kept for health checks and benchmarks. */
export interface EtcdStore extends Store {
  /** A linearizable round trip to the cluster; rejects with `Unavailable` when no quorum answers. */
  health(): Promise<void>;
  /** The etcd3 client (for raw comparisons in benchmarks). */
  readonly client: Etcd3;
  /** The key prefix this store keeps its keys under. */
  readonly prefix: string;
}

/**
 * The Store on etcd v3. A key's `modRevision` is etcd's mod revision (so an object's resourceVersion
 * is the etcd revision, as upstream), a list's revision is the response header's revision, CAS is a
 * transaction comparing `mod_revision` (create compares `create_revision == 0`), watch is etcd's watch
 * from `fromRevision + 1` with `prev_kv` and progress notifications, compaction is etcd's compaction.
 * Calls are not retried by the client: a retried create or CAS could report the outcome of its own
 * first attempt as a conflict.
 */
export function createEtcdStore(
  options: Partial<EtcdStoreOptions> & Pick<EtcdStoreOptions, 'endpoints'>,
): EtcdStore {
  const o: EtcdStoreOptions = { ...defaultEtcdStoreOptions, ...options };
  if (o.endpoints.length === 0) throw new Error('etcd store: no endpoints given');
  const ks: EtcdKeyspace = createEtcdKeyspace(o.prefix);
  const client = createEtcdClient(o);
  const kv = client.kv;
  let closed = false;
  const watches = new Set<AbortController>();
  const compaction = createEtcdCompactionPoint(kv, ks, o.compactedRevisionTtlMs);
  const { live, call, write, read, currentRevision } = createEtcdCalls({
    kv,
    keyspace: ks,
    endpoints: o.endpoints.length,
    compaction,
    isClosed: () => closed,
  });

  const openWatch = (prefix: string, fromRevision: number, signal: AbortSignal) =>
    openEtcdWatch({
      client,
      keyspace: ks,
      prefix,
      fromRevision,
      signal,
      retryMs: o.watchRetryMs,
      toKeyValue,
      onCompacted: (rev) => compaction.note(rev),
    });
  // Every watch that can shares one stream over the whole prefix (see EtcdWatchHub).
  const hub = new EtcdWatchHub((fromRevision, signal) => openWatch('', fromRevision, signal));

  /**
   * Queues the events of one watch in `watcher` until it ends, failing it as the stream fails. The
   * consumer's `outer` signal is followed only once the start revision is known to be readable, so a
   * watch from a compacted revision fails with `Compacted` even when its consumer leaves meanwhile.
   */
  async function feed(
    watcher: StoreWatcher,
    prefix: string,
    from: number,
    signal: AbortSignal,
    outer: AbortSignal | undefined,
    leave: () => void,
  ): Promise<void> {
    try {
      let floor: number;
      try {
        // A read like any other: a member that went away is skipped for the next one, as the
        // stream below rides over a broken connection (a watch opened just as a member died
        // failed here).
        floor = await read(() => compaction.learn(false));
      } catch (e) {
        if (signal.aborted || outer?.aborted) return watcher.end();
        throw e;
      }
      // etcd itself replays from its compaction point; the contract starts one revision later.
      if (from < floor)
        throw new StoreError('Compacted', `required revision ${from} has been compacted`, undefined, floor);
      if (signal.aborted || outer?.aborted) return watcher.end();
      outer?.addEventListener('abort', leave, { once: true });
      if (hub.subscribe(prefix, from, signal, watcher)) return;
      for await (const ev of openWatch(prefix, from, signal)) watcher.push(ev);
      watcher.end();
    } catch (e) {
      watcher.fail(e);
    }
  }

  function toKeyValue(raw: {
    key: Buffer;
    value: Buffer;
    create_revision: string;
    mod_revision: string;
  }): KeyValue {
    return {
      key: ks.toKey(raw.key),
      value: new Uint8Array(raw.value.buffer, raw.value.byteOffset, raw.value.byteLength),
      createRevision: Number(raw.create_revision),
      modRevision: Number(raw.mod_revision),
    };
  }

  async function readKey(key: string, atRevision?: number) {
    const res = await read(
      () => kv.range({ key: ks.toEtcd(key), ...(atRevision ? { revision: atRevision } : {}) }),
      key,
    );
    return { raw: res.kvs[0], revision: atRevision ? atRevision : Number(res.header.revision) };
  }

  const store: EtcdStore = {
    client,
    prefix: o.prefix,

    async health() {
      await currentRevision();
    },

    currentRevision,

    async compactedRevision() {
      live();
      return read(() => compaction.learn(false));
    },

    async get(key: string, options: GetOptions = {}): Promise<GetResult> {
      const { raw, revision } = await readKey(key, options.atRevision);
      return { kv: raw ? toKeyValue(raw) : undefined, revision };
    },

    async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
      const range = ks.range(prefix, options.startKey);
      const at = options.atRevision;
      if (!range) {
        // Nothing can match; still answer (and fail) as a read at that revision would.
        const res = await readKey(prefix, at);
        return { kvs: [], revision: res.revision, remaining: 0 };
      }
      const { start, end } = range;
      const res = await read(() =>
        kv.range({
          key: start,
          range_end: end,
          ...(at ? { revision: at } : {}),
          ...(options.limit ? { limit: options.limit } : {}),
        }),
      );
      const kvs = res.kvs.map(toKeyValue);
      return {
        kvs,
        revision: at ? at : Number(res.header.revision),
        remaining: Math.max(0, Number(res.count) - kvs.length),
      };
    },

    async create(key: string, value: Uint8Array): Promise<KeyValue> {
      const k = ks.toEtcd(key);
      const res = await write(
        () =>
          kv.txn({
            compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
            success: [
              {
                request_put: { key: k, value: Buffer.from(value.buffer, value.byteOffset, value.byteLength) },
              },
            ],
            failure: [],
          }),
        key,
      );
      if (!res.succeeded) throw new StoreError('AlreadyExists', `key ${key} already exists`, key);
      const rev = Number(res.header.revision);
      return { key, value, createRevision: rev, modRevision: rev };
    },

    async update(key: string, tryUpdate: TryUpdate, options: WriteOptions = {}): Promise<KeyValue> {
      const k = ks.toEtcd(key);
      let current = (await readKey(key)).raw;
      for (;;) {
        const cur = currentForWrite(current && toKeyValue(current), key, options);
        const value = await tryUpdate(cur);
        const res = await write(
          () =>
            kv.txn({
              compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: cur.modRevision }],
              success: [
                {
                  request_put: {
                    key: k,
                    value: Buffer.from(value.buffer, value.byteOffset, value.byteLength),
                  },
                },
              ],
              // Lost the race: the current value comes back in the same round trip.
              failure: [{ request_range: { key: k } }],
            }),
          key,
        );
        if (res.succeeded) {
          const rev = Number(res.header.revision);
          return { key, value, createRevision: cur.createRevision, modRevision: rev };
        }
        current = res.responses[0]?.response_range?.kvs[0];
      }
    },

    async delete(key: string, options: DeleteOptions = {}): Promise<KeyValue> {
      const k = ks.toEtcd(key);
      let current = (await readKey(key)).raw;
      for (;;) {
        const cur = currentForWrite(current && toKeyValue(current), key, options);
        await options.check?.(cur);
        const res = await write(
          () =>
            kv.txn({
              compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: cur.modRevision }],
              success: [{ request_delete_range: { key: k } }],
              failure: [{ request_range: { key: k } }],
            }),
          key,
        );
        if (res.succeeded) return { ...cur, modRevision: Number(res.header.revision) };
        current = res.responses[0]?.response_range?.kvs[0];
      }
    },

    watch(prefix: string, options: WatchOptions): AsyncIterable<StoreEvent> {
      return {
        // A StoreWatcher the events are queued in (followStoreWatch takes them a queue at a time),
        // fed by the shared stream or, for a watch far behind it, by a stream of its own.
        [Symbol.asyncIterator]: () => {
          const ac = new AbortController();
          const outer = options.signal;
          const leave = () => watcher.end();
          const watcher = new StoreWatcher(
            prefix,
            [],
            () => {
              outer?.removeEventListener('abort', leave);
              watches.delete(ac);
              ac.abort();
            },
            undefined,
          );
          try {
            live();
          } catch (e) {
            watcher.fail(e);
            return watcher;
          }
          watches.add(ac);
          // The store closing aborts `ac`: the watch ends as if its consumer had left.
          ac.signal.addEventListener('abort', () => watcher.end(), { once: true });
          void feed(watcher, prefix, options.fromRevision, ac.signal, outer, leave);
          return watcher;
        },
      };
    },

    async compact(revision: number): Promise<void> {
      try {
        await call(() => kv.compact({ revision, physical: false }));
      } catch (e) {
        // Compacting at or below the compaction point changes nothing.
        if (isStoreError(e, 'Compacted')) return;
        throw e;
      }
      compaction.note(revision);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const ac of watches) ac.abort();
      watches.clear();
      client.close();
    },
  };
  return store;
}
