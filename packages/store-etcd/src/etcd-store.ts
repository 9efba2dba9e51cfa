import {
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
  type TryUpdate,
  type WatchOptions,
  type WriteOptions,
} from '@orchard/store';
import { ConsecutiveBreaker, circuitBreaker, handleWhen, noop } from 'cockatiel';
import { Etcd3, type IOptions } from 'etcd3';
import { toStoreError } from './etcd-errors.js';
import { createEtcdKeyspace, type EtcdKeyspace } from './etcd-keyspace.js';
import { openEtcdWatch } from './etcd-watch.js';

/** Options of `createEtcdStore()`; defaults in `defaultEtcdStoreOptions`. */
export interface EtcdStoreOptions {
  /** Client URLs of the etcd members (`--etcd-servers`), e.g. `http://127.0.0.1:2379`. Required. */
  endpoints: readonly string[];
  /** Every key lives under this prefix (`--etcd-prefix`). Default `/registry`, as upstream. */
  prefix: string;
  /** TLS material (PEM) for `https://` endpoints: the CA that signed etcd's certificate, and a client certificate. */
  tls?: { ca?: string | Buffer; cert?: string | Buffer; key?: string | Buffer };
  /** etcd user and password (etcd's own auth). Default none. */
  auth?: { username: string; password: string };
  /**
   * Deadline of each unary call (reads, writes, compaction). Default 10_000 ms: a lost etcd turns
   * into an `Unavailable` error rather than a request that hangs.
   */
  requestTimeoutMs: number;
  /** How long a failing member is skipped before it is tried again. Default 1_000 ms. */
  memberRetryAfterMs: number;
  /**
   * How old the remembered compaction point may be before `compactedRevision()` asks etcd again
   * (another server may have compacted). Default 2_000 ms.
   */
  compactedRevisionTtlMs: number;
  /** Delay before a broken watch stream reconnects (it resumes after its last revision). Default 250 ms. */
  watchRetryMs: number;
}

/**
 * The defaults of every `EtcdStoreOptions` field except `endpoints` (which has none): keys under `/registry`,
 * 10 s per request, a failed member retried after 1 s, the compaction point re-read after 2 s, broken watches
 * reconnected after 250 ms. Frozen; override fields through the store's options rather than mutating it.
 */
export const defaultEtcdStoreOptions: Readonly<Omit<EtcdStoreOptions, 'endpoints'>> = Object.freeze({
  prefix: '/registry',
  requestTimeoutMs: 10_000,
  memberRetryAfterMs: 1_000,
  compactedRevisionTtlMs: 2_000,
  watchRetryMs: 250,
});

/** An etcd-backed Store, with the client kept for health checks and benchmarks. */
export interface EtcdStore extends Store {
  /** A linearizable round trip to the cluster; rejects with `Unavailable` when no quorum answers. */
  health(): Promise<void>;
  /** The etcd3 client (for raw comparisons in benchmarks). */
  readonly client: Etcd3;
  /** The key prefix this store keeps its keys under. */
  readonly prefix: string;
}

/** gRPC's words for a call that was never sent: no connection to the member, or its circuit open. */
const notSent = /No connection established|ECONNREFUSED|circuit breaker is open/;

/** 64 MiB: far above the 1.5 MiB object limit, so a watch batch or a list page is never refused by size. */
const maxMessageBytes = 64 * 1024 * 1024;

function toPem(v: string | Buffer | undefined): Buffer | undefined {
  return v === undefined ? undefined : Buffer.isBuffer(v) ? v : Buffer.from(v);
}

function hostOf(url: string): string {
  // etcd3 takes URLs; a bare host:port is http.
  return /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
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
  const tls = o.tls;
  const clientOptions: IOptions = {
    hosts: o.endpoints.map(hostOf),
    ...(tls?.ca !== undefined
      ? {
          credentials: {
            rootCertificate: toPem(tls.ca)!,
            ...(tls.key !== undefined ? { privateKey: toPem(tls.key)! } : {}),
            ...(tls.cert !== undefined ? { certChain: toPem(tls.cert)! } : {}),
          },
        }
      : {}),
    ...(o.auth ? { auth: { username: o.auth.username, password: o.auth.password } } : {}),
    grpcOptions: {
      'grpc.max_receive_message_length': maxMessageBytes,
      'grpc.max_send_message_length': maxMessageBytes,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.initial_reconnect_backoff_ms': 200,
      'grpc.max_reconnect_backoff_ms': 2_000,
    },
    // Unary calls get a deadline; watch streams live as long as their watch.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + o.requestTimeoutMs }),
    dialTimeout: o.requestTimeoutMs,
    faultHandling: {
      global: noop,
      host: () =>
        // Only lost members count towards skipping one, never a refused request (compacted, conflict).
        circuitBreaker(
          handleWhen((e) => toStoreError(e)?.code === 'Unavailable'),
          {
            halfOpenAfter: o.memberRetryAfterMs,
            breaker: new ConsecutiveBreaker(3),
          },
        ),
    },
  };
  const client = new Etcd3(clientOptions);
  const kv = client.kv;
  let closed = false;
  const watches = new Set<AbortController>();
  // The compaction point as last learned (from our compactions, etcd's answers, or a probe).
  let compacted = 0;
  let compactedAt = 0;
  let probing: Promise<number> | undefined;

  function live(): void {
    if (closed) throw new StoreError('Unavailable', 'etcd store is closed');
  }

  async function call<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    live();
    try {
      return await fn();
    } catch (e) {
      throw await mapError(e, key);
    }
  }

  /**
   * A write: repeated on another member only when the failed attempt never reached one (no
   * connection, or the member was set aside), since then it cannot have committed.
   */
  async function write<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(fn, key);
      } catch (e) {
        const unsent = isStoreError(e, 'Unavailable') && notSent.test(e.message);
        if (!unsent || attempt >= o.endpoints.length || closed) throw e;
      }
    }
  }

  /**
   * A read: safe to repeat, so a lost member is retried on the others (each try picks a member the
   * circuit breaker has not set aside). Writes are never repeated: the first attempt may have committed.
   */
  async function read<T>(fn: () => Promise<T>, key?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(fn, key);
      } catch (e) {
        if (!isStoreError(e, 'Unavailable') || attempt >= o.endpoints.length || closed) throw e;
      }
    }
  }

  async function mapError(e: unknown, key?: string): Promise<unknown> {
    if (isStoreError(e)) return e;
    const mapped = toStoreError(e, key);
    if (!mapped) return e;
    if (mapped.code === 'Compacted') {
      const rev = await learnCompacted(true).catch(() => compacted);
      return new StoreError('Compacted', mapped.message, key, rev);
    }
    if (mapped.code === 'FutureRevision') {
      const rev = await currentRevision().catch(() => undefined);
      return new StoreError('FutureRevision', mapped.message, key, rev);
    }
    return mapped;
  }

  /** Learns the compaction point (from etcd when the remembered one is older than the TTL, or `force`). */
  function learnCompacted(force: boolean): Promise<number> {
    if (!force && Date.now() - compactedAt < o.compactedRevisionTtlMs) return Promise.resolve(compacted);
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
  }

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

  async function currentRevision(): Promise<number> {
    // A linearizable read of one key: its header carries the cluster's current revision.
    const res = await read(() => kv.range({ key: ks.root, count_only: true }));
    return Number(res.header.revision);
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
      return call(() => learnCompacted(false));
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
        if (!current) throw new StoreError('NotFound', `key ${key} not found`, key);
        const cur = toKeyValue(current);
        if (options.expectedRevision !== undefined && cur.modRevision !== options.expectedRevision)
          throw new StoreError(
            'Conflict',
            `key ${key} is at revision ${cur.modRevision}, not ${options.expectedRevision}`,
            key,
          );
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
        if (!current) throw new StoreError('NotFound', `key ${key} not found`, key);
        const cur = toKeyValue(current);
        if (options.expectedRevision !== undefined && cur.modRevision !== options.expectedRevision)
          throw new StoreError(
            'Conflict',
            `key ${key} is at revision ${cur.modRevision}, not ${options.expectedRevision}`,
            key,
          );
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
        async *[Symbol.asyncIterator]() {
          live();
          const from = options.fromRevision;
          const ac = new AbortController();
          watches.add(ac);
          const onAbort = () => ac.abort();
          options.signal?.addEventListener('abort', onAbort, { once: true });
          if (options.signal?.aborted) ac.abort();
          try {
            let floor: number;
            try {
              floor = await learnCompacted(false);
            } catch (e) {
              if (ac.signal.aborted) return;
              throw await mapError(e);
            }
            // etcd itself replays from its compaction point; the contract starts one revision later.
            if (from < floor)
              throw new StoreError(
                'Compacted',
                `required revision ${from} has been compacted`,
                undefined,
                floor,
              );
            if (ac.signal.aborted) return;
            yield* openEtcdWatch({
              client,
              keyspace: ks,
              prefix,
              fromRevision: from,
              signal: ac.signal,
              retryMs: o.watchRetryMs,
              toKeyValue,
              onCompacted: (rev) => {
                compacted = Math.max(compacted, rev);
                compactedAt = Date.now();
              },
            });
          } finally {
            options.signal?.removeEventListener('abort', onAbort);
            watches.delete(ac);
            ac.abort();
          }
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
      compacted = Math.max(compacted, revision);
      compactedAt = Date.now();
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
