/**
 * The versioned Store contract, modelled on etcd v3 MVCC so every backend (memory, SQLite, etcd)
 * can honour it. Keys are strings (`/<group>/<resource>/<namespace>/<name>`), values are opaque
 * serialized bytes: the store never decodes them.
 *
 * Revisions: one global, strictly increasing integer per store. Every write gets the next revision.
 * A key's `modRevision` is the revision of its last write; a read reports the revision it was read at.
 * Revisions are numbers here; on the wire they are opaque strings and only the store and the pager
 * parse them.
 */
export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  /** Revision at which this key was created (unchanged by updates). */
  readonly createRevision: number;
  /** Revision of the last write of this key. */
  readonly modRevision: number;
  /**
   * Set only by a value-transforming wrapper (encryption at rest): the value was read through a
   * provider or key other than the one writes use, so the next write must be made even if the
   * object is unchanged (that write re-encrypts it). Backends never set it.
   */
  readonly stale?: boolean;
  /**
   * Set only by a value-transforming wrapper when the stored bytes could not be transformed back
   * (a decryption failure: the key is gone, the tag does not verify). `value` is then the raw stored
   * bytes and the reader must treat the value as unreadable (the unsafe-delete path of the spec
   * exists for it). Backends never set it.
   */
  readonly transformError?: string;
}

/** One change a watch delivers: a put or a delete, with the previous value. */
export interface StoreEvent {
  readonly type: 'put' | 'delete';
  /** For `put`: the new value. For `delete`: the value that was deleted, with `modRevision` = the deletion revision. */
  readonly kv: KeyValue;
  /** The value before this event, when there was one. */
  readonly prevKv?: KeyValue;
  /** The revision of this event (== kv.modRevision). */
  readonly revision: number;
}

/** Options of `Store.get`: read at a past revision. */
export interface GetOptions {
  /** Read as of this revision; rejects with `Compacted` below the compacted revision, `FutureRevision` above the current. */
  atRevision?: number;
}

/** A get: the value (if any) and the revision it was read at. */
export interface GetResult {
  kv: KeyValue | undefined;
  /** The revision the read was served at. */
  revision: number;
}

/** Options of `Store.list`: revision, limit and the key to start from. */
export interface ListOptions {
  /** Read a consistent snapshot as of this revision (same errors as `get`). Default: the current revision. */
  atRevision?: number;
  /** Maximum number of keys to return. 0 or unset = all. */
  limit?: number;
  /** Return keys >= startKey only (keys are ordered by UTF-16 code units, as in JS string comparison). */
  startKey?: string;
}

/** A list page: the key-values, the snapshot revision and how many keys remain after it. */
export interface ListResult {
  kvs: KeyValue[];
  /** The snapshot revision; pass it as `atRevision` to read the next page from the same snapshot. */
  revision: number;
  /** How many keys under the prefix remain after this page at that snapshot (0 on the last page). */
  remaining: number;
}

/** Options of writes (compare-and-swap on `expectedRevision`). */
export interface WriteOptions {
  /** Compare-and-swap: fail with `Conflict` unless the key's current modRevision equals this. */
  expectedRevision?: number;
}

/** Options of `Store.delete`: compare-and-swap and a check run on the current value first. */
export interface DeleteOptions extends WriteOptions {
  /** Runs on the current value before the delete; throw to abort (used for preconditions). Must be pure: it may re-run. */
  check?: (current: KeyValue) => void | Promise<void>;
}

/** One key to create with `Store.createAll`. */
export interface NewEntry {
  readonly key: string;
  readonly value: Uint8Array;
}

/** Where a watch starts (`fromRevision`) and the signal that ends it. */
export interface WatchOptions {
  /** Deliver every event with revision > fromRevision. Rejects with `Compacted` if that history is gone. */
  fromRevision: number;
  /** Ends the iteration. */
  signal?: AbortSignal;
}

/** Computes the new value from the current one. It re-runs after a lost race, so it must be pure. Throw to abort. */
export type TryUpdate = (current: KeyValue) => Uint8Array | Promise<Uint8Array>;

/**
 * The versioned key-value store every backend implements (see the module comment for the revision
 * contract).
 */
export interface Store {
  /** The latest revision written (0 for an empty store that never had a write). */
  currentRevision(): Promise<number>;
  /** The revision below which history is gone. */
  compactedRevision(): Promise<number>;
  get(key: string, options?: GetOptions): Promise<GetResult>;
  /** Lists keys starting with `prefix` in key order. */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Creates a key; rejects with `AlreadyExists`. */
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  /**
   * Optional: creates every entry, each at its own revision in the given order, as one write:
   * all or nothing. Rejects with `AlreadyExists` (nothing written) when a key exists or repeats.
   * Watchers see one `put` per entry, in order. For a batch known up front (a server's default
   * objects at start) where a create each would pay its own round through the writer; a backend
   * without it takes concurrent `create`s.
   */
  createAll?(entries: readonly NewEntry[]): Promise<KeyValue[]>;
  /** Replaces a key's value via `tryUpdate`; rejects with `NotFound`, or `Conflict` when `expectedRevision` does not hold. */
  update(key: string, tryUpdate: TryUpdate, options?: WriteOptions): Promise<KeyValue>;
  /** Deletes a key; resolves to the deleted value with `modRevision` = the deletion revision. Rejects with `NotFound` / `Conflict`. */
  delete(key: string, options?: DeleteOptions): Promise<KeyValue>;
  /** Events under `prefix` in revision order, starting after `fromRevision`. */
  watch(prefix: string, options: WatchOptions): AsyncIterable<StoreEvent>;
  /** Discards history below `revision`; later reads/watches below it reject with `Compacted`. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}
