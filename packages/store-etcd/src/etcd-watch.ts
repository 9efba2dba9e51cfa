import { type KeyValue, StoreError, type StoreEvent } from '@orchard/store';
import type { Etcd3, IKeyValue, IWatchResponse } from 'etcd3';
import type { EtcdKeyspace } from './etcd-keyspace.js';

export interface EtcdWatchArgs {
  client: Etcd3;
  keyspace: EtcdKeyspace;
  prefix: string;
  /** Events with revision > fromRevision are delivered. */
  fromRevision: number;
  signal: AbortSignal;
  retryMs: number;
  toKeyValue(raw: IKeyValue): KeyValue;
  /** Called when etcd refuses the watch because its history is compacted. */
  onCompacted(revision: number): void;
}

type Item = { res: IWatchResponse } | { broken: unknown };

/** A FIFO that a consumer awaits; `shift` resolves undefined once the signal aborts. */
class ResponseQueue {
  private items: Item[] = [];
  private waiter: ((item: Item | undefined) => void) | undefined;

  push(item: Item): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(item);
    } else this.items.push(item);
  }

  shift(signal: AbortSignal): Promise<Item | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    const head = this.items.shift();
    if (head) return Promise.resolve(head);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiter = undefined;
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (item) => {
        signal.removeEventListener('abort', onAbort);
        resolve(item);
      };
    });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * One etcd watch over a key prefix, as Store events. The watch is opened on its own gRPC stream
 * (rather than etcd3's shared watcher, which resumes from the response header's revision and so can
 * skip events still being replayed when the stream broke). A broken stream reconnects after
 * `retryMs` and resumes right after the last delivered event, so nothing is skipped or repeated; etcd refusing the start revision as compacted ends the watch with
 * `Compacted`.
 */
export async function* openEtcdWatch(a: EtcdWatchArgs): AsyncGenerator<StoreEvent> {
  const range = a.keyspace.range(a.prefix);
  if (!range) return;
  let next = a.fromRevision + 1;
  while (!a.signal.aborted) {
    const queue = new ResponseQueue();
    let stream: Awaited<ReturnType<Etcd3['watchClient']['watch']>>;
    try {
      stream = await a.client.watchClient.watch();
    } catch {
      await sleep(a.retryMs, a.signal);
      continue;
    }
    try {
      stream.on('data', (res: IWatchResponse) => queue.push({ res }));
      stream.on('error', (e: unknown) => queue.push({ broken: e }));
      stream.on('end', () => queue.push({ broken: new Error('watch stream ended') }));
      stream.write({
        create_request: {
          key: range.start,
          range_end: range.end,
          start_revision: next,
          prev_kv: true,
          progress_notify: true,
        },
      });
      for (;;) {
        const item = await queue.shift(a.signal);
        if (!item) return;
        if ('broken' in item) break;
        const res = item.res;
        if (res.canceled) {
          const compacted = Number(res.compact_revision);
          if (compacted > 0) {
            a.onCompacted(compacted);
            throw new StoreError(
              'Compacted',
              `required revision ${next - 1} has been compacted`,
              undefined,
              compacted,
            );
          }
          throw new StoreError('Unavailable', `etcd canceled the watch: ${res.cancel_reason ?? ''}`);
        }
        const events = res.events ?? [];
        for (const ev of events) {
          const revision = Number(ev.kv.mod_revision);
          const prevKv = ev.prev_kv ? a.toKeyValue(ev.prev_kv) : undefined;
          if (ev.type === 'Delete') {
            const kv: KeyValue = prevKv
              ? { ...prevKv, modRevision: revision }
              : {
                  key: a.keyspace.toKey(ev.kv.key),
                  value: new Uint8Array(0),
                  createRevision: 0,
                  modRevision: revision,
                };
            yield { type: 'delete', kv, ...(prevKv ? { prevKv } : {}), revision };
          } else {
            yield { type: 'put', kv: a.toKeyValue(ev.kv), ...(prevKv ? { prevKv } : {}), revision };
          }
          next = revision + 1;
          if (a.signal.aborted) return;
        }
        // A progress notification (no events) is not used to move the resume point: etcd before
        // 3.4.25 can send one ahead of events still queued for the watcher (etcd-io/etcd#15220), and
        // resuming past them after a reconnect would skip them. Resuming after the last delivered event
        // costs at worst a Compacted error (and the caller's relist), never a gap.
      }
    } finally {
      stream.on('error', () => undefined);
      stream.cancel();
    }
    await sleep(a.retryMs, a.signal);
  }
}
