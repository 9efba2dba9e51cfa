import { StoreError } from './errors.js';
import { OrderedIndex } from './ordered-index.js';
import { type PackedValue, packedModRevision, packValue, unpackValue } from './packed-value.js';
import { checkCompactRevision, compactedError, resolveReadRevision } from './read-revision.js';
import type {
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
import { StoreWatcher } from './store-watcher.js';
import { currentForWrite } from './write-precondition.js';

/** One version of a key since the last compaction; `undefined` value marks a deletion (tombstone). */
interface Version {
  readonly revision: number;
  readonly kv: KeyValue | undefined;
}

/**
 * A key's history since the last compaction. Most keys have one live version: it is then held as
 * its `KeyValue` alone (its revision is its `modRevision`), not a version list, which costs a
 * version object and a growable array per key (~220 B of heap per stored object), and once a
 * compaction has passed it, packed (`PackedValue`: the `KeyValue` is then also out of the event
 * log, so packing frees it); a key written or deleted since the last compaction holds the list,
 * oldest first, until compaction shrinks it.
 */
type History = KeyValue | PackedValue | Version[];

/** Options of the in-memory store (automatic compaction). */
export interface MemoryStoreOptions {
  /**
   * Compact history automatically, keeping this many revisions (0 = never; compaction is then the
   * caller's job, as with etcd). Bounded history keeps memory flat under endless writes.
   */
  autoCompactRetainRevisions?: number;
}

/** Defaults of `MemoryStoreOptions`. */
export const defaultMemoryStoreOptions: Readonly<Required<MemoryStoreOptions>> = Object.freeze({
  autoCompactRetainRevisions: 0,
});

/**
 * The embedded default backend: an MVCC map honouring the whole Store contract (snapshot reads at
 * past revisions, CAS, ordered watch from a revision, compaction). Single-process only.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  return new MemoryStore({ ...defaultMemoryStoreOptions, ...options });
}

/** The error of a create whose key exists. */
function alreadyExists(key: string): StoreError {
  return new StoreError('AlreadyExists', `key ${key} already exists`, key);
}

class MemoryStore implements Store {
  private revision = 0;
  private compacted = 0;
  /** Every key that has a version since compaction, in order (prefix lists walk it from the prefix), with its history. */
  private readonly index = new OrderedIndex<History>();
  /** Keys whose history is not packed yet (written since they were last packed): all compaction and packing visit. */
  private readonly unpacked = new Set<string>();
  /** The background pass packing what compaction has passed, while it runs. */
  private packing: NodeJS.Immediate | undefined;
  /** A compaction came while the pass ran: keys it already passed may be packable now, so it starts over. */
  private repack = false;
  /** Events since compaction, in revision order (one per revision). */
  private events: StoreEvent[] = [];
  private readonly watchers = new Set<StoreWatcher>();
  private closed = false;
  /** Writes run one at a time so tryUpdate sees a stable current value. */
  private lock: Promise<void> = Promise.resolve();

  constructor(private readonly options: Required<MemoryStoreOptions>) {}

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult> {
    const at = this.readRevision(options.atRevision);
    return { kv: this.valueAt(key, at), revision: at };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const at = this.readRevision(options.atRevision);
    const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
    const from = options.startKey !== undefined && options.startKey > prefix ? options.startKey : prefix;
    const kvs: KeyValue[] = [];
    let remaining = 0;
    for (const [key, history] of this.index.from(from)) {
      if (!key.startsWith(prefix)) break;
      const kv = historyAt(key, history, at);
      if (!kv) continue;
      if (kvs.length < limit) kvs.push(kv);
      else remaining++;
    }
    return { kvs, revision: at, remaining };
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.exclusive(() => {
      if (this.valueAt(key, this.revision)) throw alreadyExists(key);
      return this.putNew(key, value);
    });
  }

  createAll(entries: readonly NewEntry[]): Promise<KeyValue[]> {
    return this.exclusive(() => {
      const keys = new Set<string>();
      for (const { key } of entries) {
        if (keys.has(key) || this.valueAt(key, this.revision)) throw alreadyExists(key);
        keys.add(key);
      }
      return entries.map(({ key, value }) => this.putNew(key, value));
    });
  }

  /** Commits `key`, which the caller found absent, as a new key at the next revision. */
  private putNew(key: string, value: Uint8Array): KeyValue {
    const rev = this.revision + 1;
    const kv: KeyValue = { key, value, createRevision: rev, modRevision: rev };
    this.commit({ type: 'put', kv, revision: rev });
    return kv;
  }

  update(key: string, tryUpdate: TryUpdate, options: WriteOptions = {}): Promise<KeyValue> {
    return this.exclusive(async () => {
      const current = this.existing(key, options);
      const value = await tryUpdate(current);
      const rev = this.revision + 1;
      const kv: KeyValue = { key, value, createRevision: current.createRevision, modRevision: rev };
      this.commit({ type: 'put', kv, prevKv: current, revision: rev });
      return kv;
    });
  }

  delete(key: string, options: DeleteOptions = {}): Promise<KeyValue> {
    return this.exclusive(async () => {
      const current = this.existing(key, options);
      if (options.check) await options.check(current);
      const rev = this.revision + 1;
      const kv: KeyValue = { ...current, modRevision: rev };
      this.commit({ type: 'delete', kv, prevKv: current, revision: rev });
      return kv;
    });
  }

  watch(prefix: string, options: WatchOptions): AsyncIterable<StoreEvent> {
    return {
      [Symbol.asyncIterator]: () => {
        if (options.fromRevision < this.compacted) throw compactedError(options.fromRevision, this.compacted);
        const backlog = this.events.filter(
          (e) => e.revision > options.fromRevision && e.kv.key.startsWith(prefix),
        );
        const watcher = new StoreWatcher(
          prefix,
          backlog,
          () => this.watchers.delete(watcher),
          options.signal,
        );
        if (this.closed) watcher.end();
        else this.watchers.add(watcher);
        return watcher;
      },
    };
  }

  async compact(revision: number): Promise<void> {
    if (revision <= this.compacted) return;
    checkCompactRevision(revision, this.revision);
    this.compacted = revision;
    this.events = this.events.filter((e) => e.revision > revision);
    for (const key of this.unpacked) {
      const history = this.index.get(key);
      if (!Array.isArray(history)) continue;
      // Keep the newest version at or below the compaction point (it is the value seen there) and everything after.
      let keepFrom = 0;
      for (let i = 0; i < history.length; i++) if (history[i]!.revision <= revision) keepFrom = i;
      const kept = history.slice(keepFrom);
      const only = kept.length === 1 ? kept[0]! : undefined;
      if (only?.kv === undefined && only !== undefined && only.revision <= revision) {
        this.index.delete(key);
        this.unpacked.delete(key);
      } else {
        this.index.set(key, only?.kv ?? kept);
      }
    }
    this.schedulePacking();
  }

  /**
   * Packs, a batch per turn of the event loop, the keys whose one live version compaction has
   * passed (out of the event log, so packing frees the `KeyValue`). In the background: packing
   * 100k fresh values in one go held the event loop for ~250 ms.
   */
  private schedulePacking(): void {
    if (this.closed) return;
    if (this.packing) {
      this.repack = true;
      return;
    }
    let keys = this.unpacked.values();
    const step = () => {
      this.packing = undefined;
      let bytes = 0;
      let visited = 0;
      for (let next = keys.next(); !next.done; next = keys.next()) {
        const key = next.value;
        const history = this.index.get(key);
        if (history === undefined || typeof history === 'string') this.unpacked.delete(key);
        else if (!Array.isArray(history) && history.modRevision <= this.compacted) {
          this.index.set(key, packValue(history));
          this.unpacked.delete(key);
          bytes += history.value.byteLength;
        }
        // A turn ends after a bounded number of bytes copied (values go up to 1.5 MiB each) or of
        // keys looked at (those not packable yet copy nothing).
        if (bytes >= packBytesPerTurn || ++visited >= packKeysPerTurn) {
          if (!this.closed) this.packing = setImmediate(step);
          return;
        }
      }
      if (this.repack && !this.closed) {
        this.repack = false;
        keys = this.unpacked.values();
        this.packing = setImmediate(step);
      }
    };
    this.packing = setImmediate(step);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.packing) clearImmediate(this.packing);
    this.packing = undefined;
    for (const w of this.watchers) w.end();
    this.watchers.clear();
  }

  private readRevision(atRevision: number | undefined): number {
    return resolveReadRevision(atRevision, this.revision, this.compacted);
  }

  private valueAt(key: string, revision: number): KeyValue | undefined {
    const history = this.index.get(key);
    return history === undefined ? undefined : historyAt(key, history, revision);
  }

  private existing(key: string, options: WriteOptions): KeyValue {
    return currentForWrite(this.valueAt(key, this.revision), key, options);
  }

  private commit(event: StoreEvent): void {
    this.revision = event.revision;
    const key = event.kv.key;
    const history = this.index.get(key);
    this.unpacked.add(key);
    const version: Version = { revision: event.revision, kv: event.type === 'put' ? event.kv : undefined };
    if (!history) {
      // A first write is a put (a delete needs a current value): its KeyValue is the whole history.
      this.index.set(key, version.kv ?? [version]);
    } else if (Array.isArray(history)) {
      history.push(version);
    } else {
      // The previous value the write just read (`prevKv`), not a second copy of the same bytes.
      const kv = typeof history === 'string' ? (event.prevKv ?? unpackValue(key, history)) : history;
      this.index.set(key, [{ revision: kv.modRevision, kv }, version]);
    }
    this.events.push(event);
    for (const w of this.watchers) if (key.startsWith(w.prefix)) w.push(event);
    const retain = this.options.autoCompactRetainRevisions;
    if (retain > 0 && this.revision - this.compacted > retain * 2) void this.compact(this.revision - retain);
  }

  private exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StoreError('Unavailable', 'store is closed'));
    const run = this.lock.then(fn);
    this.lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

/**
 * Value bytes packed per turn of the event loop (a key's bytes are copied twice): ~250 ConfigMaps
 * of 535 B, well under 10 ms with the collector's pauses; a single larger value is a turn of its own.
 */
const packBytesPerTurn = 128 * 1024;

/** Keys looked at per turn of the event loop, packed or not. */
const packKeysPerTurn = 4096;

/** The value of `key` at `revision` in its history (undefined: absent or deleted then). */
function historyAt(key: string, history: History, revision: number): KeyValue | undefined {
  if (typeof history === 'string')
    return packedModRevision(history) <= revision ? unpackValue(key, history) : undefined;
  if (!Array.isArray(history)) return history.modRevision <= revision ? history : undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const v = history[i]!;
    if (v.revision <= revision) return v.kv;
  }
  return undefined;
}
