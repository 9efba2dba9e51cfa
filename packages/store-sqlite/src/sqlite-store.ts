import {
  checkCompactRevision,
  compactedError,
  currentForWrite,
  type DeleteOptions,
  type GetOptions,
  type GetResult,
  type KeyValue,
  type ListOptions,
  type ListResult,
  resolveReadRevision,
  type Store,
  StoreError,
  type StoreEvent,
  StoreWatcher,
  type TryUpdate,
  type WatchOptions,
  type WriteOptions,
} from '@orchard/store';
import type Database from 'better-sqlite3';
import { decodeKey, encodeKey, prefixEnd, toBuffer } from './sqlite-keys.js';
import {
  openSqliteLog,
  type Row,
  type SqliteStatements,
  toKeyValue,
  toSqliteStoreError,
} from './sqlite-log.js';
import { defaultSqliteStoreOptions, type SqliteStoreOptions } from './sqlite-store-options.js';

export { defaultSqliteStoreOptions, type SqliteStoreOptions } from './sqlite-store-options.js';

/**
 * The durable single-machine backend. Every write appends one row to a log table whose primary key
 * is the revision (in the manner of kine): a put or a tombstone holding the deleted value. A read at
 * revision R takes each key's newest row at or below R; compaction to R deletes every row superseded
 * at R (and tombstones at or below R). Watches replay the log from their revision and then follow
 * the commits of this process, which is the only writer: the file is opened in WAL mode with an
 * exclusive lock, and every commit is synchronous (fsync before the write is acknowledged). Writes
 * that queue up while one runs share a commit (group commit); rows of a commit in progress carry
 * revisions above the committed one, so no read or watch sees them before they are durable.
 *
 * Keys are stored as UTF-16BE blobs so SQLite's byte order equals JavaScript's code-unit order.
 * Opening a file that is not a database rejects with `Corrupt`; one that another process holds
 * open rejects with `Unavailable`.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  return new SqliteStore({ ...defaultSqliteStoreOptions, ...options });
}

class SqliteStore implements Store {
  private readonly db: Database.Database;
  private revision: number;
  private compacted: number;
  private readonly watchers = new Set<StoreWatcher>();
  private closed = false;
  /** Writes run one at a time so tryUpdate sees a stable current value. */
  private lock: Promise<void> = Promise.resolve();
  /** Writes waiting for the lock. */
  private queued = 0;
  /** A commit is scheduled for the end of this event-loop turn. */
  private flushScheduled = false;
  /** Staged writes of the open transaction, acknowledged at its commit. */
  private pending: Array<{ event: StoreEvent; resolve: () => void; reject: (e: unknown) => void }> = [];
  /** The revision the next write gets (committed revision + staged writes). */
  private nextRevision: number;
  private readonly stmt: SqliteStatements;

  constructor(private readonly options: Required<SqliteStoreOptions>) {
    const opened = openSqliteLog(options.path, options.checkOnOpen);
    this.db = opened.db;
    this.stmt = opened.stmt;
    this.revision = opened.revision;
    this.compacted = opened.compacted;
    this.nextRevision = this.revision + 1;
  }

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult> {
    this.assertOpen();
    const at = this.readRevision(options.atRevision);
    return { kv: this.sqlite(() => this.valueAt(encodeKey(key), at)), revision: at };
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const at = this.readRevision(options.atRevision);
    const limit = options.limit && options.limit > 0 ? options.limit : -1;
    const from = options.startKey !== undefined && options.startKey > prefix ? options.startKey : prefix;
    const fromBlob = encodeKey(from);
    const end = prefixEnd(encodeKey(prefix));
    return this.sqlite(() => this.listRows(fromBlob, end, at, limit));
  }

  private listRows(fromBlob: Buffer, end: Buffer | undefined, at: number, limit: number): ListResult {
    const rows = (
      end ? this.stmt.list.all(fromBlob, end, at, limit) : this.stmt.listOpen.all(fromBlob, at, limit)
    ) as Row[];
    const kvs = rows.map((row) => toKeyValue(row));
    let remaining = 0;
    if (limit > 0 && rows.length === limit) {
      const last = rows[rows.length - 1]!.key;
      remaining = (
        (end ? this.stmt.count.get(last, end, at) : this.stmt.countOpen.get(last, at)) as { n: number }
      ).n;
    }
    return { kvs, revision: at, remaining };
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.write(() => {
      const k = encodeKey(key);
      if (this.valueAt(k, this.nextRevision - 1)) {
        throw new StoreError('AlreadyExists', `key ${key} already exists`, key);
      }
      const rev = this.nextRevision;
      const kv: KeyValue = { key, value, createRevision: rev, modRevision: rev };
      return { kv, durable: this.stage(k, { type: 'put', kv, revision: rev }, null) };
    });
  }

  update(key: string, tryUpdate: TryUpdate, options: WriteOptions = {}): Promise<KeyValue> {
    return this.write(async () => {
      const k = encodeKey(key);
      const current = this.existing(k, key, options);
      const value = await tryUpdate(current);
      const rev = this.nextRevision;
      const kv: KeyValue = { key, value, createRevision: current.createRevision, modRevision: rev };
      return {
        kv,
        durable: this.stage(k, { type: 'put', kv, prevKv: current, revision: rev }, current.modRevision),
      };
    });
  }

  delete(key: string, options: DeleteOptions = {}): Promise<KeyValue> {
    return this.write(async () => {
      const k = encodeKey(key);
      const current = this.existing(k, key, options);
      if (options.check) await options.check(current);
      const rev = this.nextRevision;
      const kv: KeyValue = { ...current, modRevision: rev };
      return {
        kv,
        durable: this.stage(k, { type: 'delete', kv, prevKv: current, revision: rev }, current.modRevision),
      };
    });
  }

  watch(prefix: string, options: WatchOptions): AsyncIterable<StoreEvent> {
    return {
      [Symbol.asyncIterator]: () => {
        this.assertOpen();
        if (options.fromRevision < this.compacted) throw compactedError(options.fromRevision, this.compacted);
        // Replaying the log and registering happen in one synchronous step: no commit can fall between.
        const backlog: StoreEvent[] = [];
        this.sqlite(() => {
          for (const row of this.stmt.since.iterate(options.fromRevision, this.revision) as Iterable<Row>) {
            const key = decodeKey(row.key);
            if (key.startsWith(prefix)) backlog.push(this.toEvent(row, key));
          }
        });
        const watcher = new StoreWatcher(
          prefix,
          backlog,
          () => this.watchers.delete(watcher),
          options.signal,
        );
        this.watchers.add(watcher);
        return watcher;
      },
    };
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision <= this.compacted) return;
    checkCompactRevision(revision, this.revision);
    // Serialized with the writes; it only touches committed rows, so it may share their commit.
    await this.write(() => {
      if (revision <= this.compacted) return { kv: undefined, durable: Promise.resolve() };
      this.begin();
      this.stmt.compactSuperseded.run(revision, revision);
      this.stmt.compactTombstones.run(revision);
      this.stmt.setMeta.run(revision, 'compacted');
      this.compacted = revision;
      return { kv: undefined, durable: this.stageNothing() };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.watchers) w.end();
    this.watchers.clear();
    await this.lock;
    // Staged writes whose commit was scheduled are committed now, not lost.
    this.flush();
    this.db.close();
  }

  private inTransaction = false;

  private begin(): void {
    if (!this.inTransaction) {
      this.stmt.begin.run();
      this.inTransaction = true;
    }
  }

  /** Appends a write's row to the open transaction; resolves once it is committed. */
  private stage(key: Buffer, event: StoreEvent, prev: number | null): Promise<void> {
    this.begin();
    const { kv } = event;
    this.stmt.insert.run(
      event.revision,
      key,
      kv.createRevision,
      event.type === 'delete' ? 1 : 0,
      toBuffer(kv.value),
      prev,
    );
    this.nextRevision = event.revision + 1;
    return new Promise<void>((resolve, reject) => this.pending.push({ event, resolve, reject }));
  }

  private stageNothing(): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.pending.push({ event: undefined as unknown as StoreEvent, resolve, reject }),
    );
  }

  /** Commits the open transaction: the staged writes become visible, watched and acknowledged together. */
  private flush(): void {
    if (!this.inTransaction) return;
    const batch = this.pending;
    this.pending = [];
    this.inTransaction = false;
    const last = this.nextRevision - 1;
    try {
      if (last > this.revision) this.stmt.setMeta.run(last, 'revision');
      this.stmt.commit.run();
    } catch (e) {
      try {
        this.stmt.rollback.run();
      } catch {
        // the commit error is the one to report
      }
      this.nextRevision = this.revision + 1;
      const err = new StoreError(
        'Unavailable',
        `commit failed: ${e instanceof Error ? e.message : String(e)}`,
      );
      for (const p of batch) p.reject(err);
      return;
    }
    this.revision = last;
    for (const p of batch) {
      const event = p.event;
      if (event) for (const w of this.watchers) if (event.kv.key.startsWith(w.prefix)) w.push(event);
      p.resolve();
    }
    const retain = this.options.autoCompactRetainRevisions;
    if (retain > 0 && this.revision - this.compacted > retain * 2) {
      this.compact(this.revision - retain).catch(() => undefined);
    }
  }

  /**
   * Commits at the end of this event-loop turn (after its I/O callbacks, under the writer lock), not
   * at once: the commit's fsync blocks the process, so writes whose requests arrived in the same turn
   * (an HTTP server parses every readable socket before `setImmediate` callbacks run) must be staged
   * before it to share it. Committing as soon as the queue was empty made every HTTP write commit
   * alone, at the disk's fsync rate.
   */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.lock = this.lock.then(() => this.flush());
    });
  }

  /**
   * Runs one write under the writer lock. The staged row joins the open transaction, which commits
   * at the end of the event-loop turn when no other write is queued, or at once when the batch is
   * full; the write resolves after that commit.
   */
  private write<T>(
    fn: () => { kv: T; durable: Promise<void> } | Promise<{ kv: T; durable: Promise<void> }>,
  ): Promise<T> {
    if (this.closed) return Promise.reject(new StoreError('Unavailable', 'store is closed'));
    this.queued++;
    const run = this.lock.then(async () => {
      this.queued--;
      try {
        return await fn();
      } catch (e) {
        throw this.sqliteError(e);
      } finally {
        if (this.pending.length >= this.options.maxBatchWrites || this.closed) this.flush();
        else if (this.queued === 0) this.scheduleFlush();
      }
    });
    this.lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run.then(({ kv, durable }) => durable.then(() => kv));
  }

  private toEvent(row: Row, key: string): StoreEvent {
    const kv = toKeyValue(row, key);
    const prevRow = row.prev === null ? undefined : (this.stmt.byId.get(row.prev) as Row | undefined);
    const prevKv = prevRow ? toKeyValue(prevRow, key) : undefined;
    return row.deleted
      ? { type: 'delete', kv, ...(prevKv ? { prevKv } : {}), revision: row.id }
      : { type: 'put', kv, ...(prevKv ? { prevKv } : {}), revision: row.id };
  }

  /** Runs statements, turning SQLite's failures into StoreErrors that name the file. */
  private sqlite<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw this.sqliteError(e);
    }
  }

  /** A SQLite failure as a StoreError naming the file (see `toSqliteStoreError`). */
  private sqliteError(e: unknown): unknown {
    return toSqliteStoreError(this.options.path, e);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('Unavailable', 'store is closed');
  }

  private readRevision(atRevision: number | undefined): number {
    return resolveReadRevision(atRevision, this.revision, this.compacted);
  }

  private valueAt(key: Buffer, revision: number): KeyValue | undefined {
    const row = this.stmt.latest.get(key, revision) as Row | undefined;
    return row && !row.deleted ? toKeyValue(row) : undefined;
  }

  private existing(k: Buffer, key: string, options: WriteOptions): KeyValue {
    // A writer sees the staged rows of the open transaction too.
    return currentForWrite(this.valueAt(k, this.nextRevision - 1), key, options);
  }
}
