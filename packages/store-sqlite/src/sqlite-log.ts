import { type KeyValue, StoreError } from '@orchard/store';
import Database from 'better-sqlite3';
import { decodeKey } from './sqlite-keys.js';

/** One row of the log table: a put or a tombstone at revision `id`. */
export interface Row {
  id: number;
  key: Buffer;
  created: number;
  deleted: number;
  value: Buffer;
  prev: number | null;
}

/** The statements of `prepareStatements`, by name. */
export type SqliteStatements = Readonly<
  Record<
    | 'meta'
    | 'setMeta'
    | 'latest'
    | 'byId'
    | 'insert'
    | 'list'
    | 'listOpen'
    | 'count'
    | 'countOpen'
    | 'since'
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'compactSuperseded'
    | 'compactTombstones',
    Database.Statement
  >
>;

/** What opening the file yields: the database, its statements, the committed and compacted revisions. */
export interface OpenedSqliteLog {
  readonly db: Database.Database;
  readonly stmt: SqliteStatements;
  readonly revision: number;
  readonly compacted: number;
}

function mapOpenError(path: string, e: unknown): never {
  const code = (e as { code?: string }).code ?? '';
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    throw new StoreError('Corrupt', `${path} is not a readable SQLite database: ${message}`);
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    throw new StoreError('Unavailable', `${path} is in use by another process: ${message}`);
  }
  throw new StoreError('Unavailable', `cannot open ${path}: ${message}`);
}

/**
 * Opens (or creates) the log database at `path`: one writer (exclusive lock, WAL, synchronous commits),
 * the page structure checked when `checkOnOpen`, the tables created when missing. A file that is not a
 * database rejects with `Corrupt`, one another process holds with `Unavailable`.
 */
export function openSqliteLog(path: string, checkOnOpen: boolean): OpenedSqliteLog {
  let db: Database.Database;
  try {
    // A short busy timeout: the file has one writer, so waiting on a lock means another process owns it.
    db = new Database(path, { timeout: 100 });
  } catch (e) {
    mapOpenError(path, e);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    if (checkOnOpen) {
      const verdict = (db.pragma('quick_check(1)') as { quick_check: string }[])[0]?.quick_check;
      if (verdict !== 'ok')
        throw Object.assign(new Error(`quick_check: ${verdict ?? 'no answer'}`), {
          code: 'SQLITE_CORRUPT',
        });
    }
    db.exec(`
      CREATE TABLE IF NOT EXISTS log (
        id INTEGER PRIMARY KEY,
        key BLOB NOT NULL,
        created INTEGER NOT NULL,
        deleted INTEGER NOT NULL,
        value BLOB NOT NULL,
        prev INTEGER
      );
      CREATE INDEX IF NOT EXISTS log_key_id ON log (key, id);
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 0), ('compacted', 0);
    `);
    const stmt = prepareStatements(db);
    return {
      db,
      stmt,
      revision: (stmt.meta.get('revision') as { value: number }).value,
      compacted: (stmt.meta.get('compacted') as { value: number }).value,
    };
  } catch (e) {
    try {
      db.close();
    } catch {
      // the open error is the one worth reporting
    }
    mapOpenError(path, e);
  }
}

/** The statements the store runs, prepared once on an open database. */
export function prepareStatements(db: Database.Database): SqliteStatements {
  return {
    meta: db.prepare('SELECT value FROM meta WHERE name = ?'),
    setMeta: db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
    latest: db.prepare('SELECT * FROM log WHERE key = ? AND id <= ? ORDER BY id DESC LIMIT 1'),
    byId: db.prepare('SELECT * FROM log WHERE id = ?'),
    insert: db.prepare('INSERT INTO log (id, key, created, deleted, value, prev) VALUES (?, ?, ?, ?, ?, ?)'),
    list: db.prepare(
      `SELECT l.* FROM log l JOIN (
         SELECT key, MAX(id) AS id FROM log WHERE key >= ? AND key < ? AND id <= ? GROUP BY key
       ) m ON l.id = m.id WHERE l.deleted = 0 ORDER BY l.key LIMIT ?`,
    ),
    listOpen: db.prepare(
      `SELECT l.* FROM log l JOIN (
         SELECT key, MAX(id) AS id FROM log WHERE key >= ? AND id <= ? GROUP BY key
       ) m ON l.id = m.id WHERE l.deleted = 0 ORDER BY l.key LIMIT ?`,
    ),
    count: db.prepare(
      `SELECT COUNT(*) AS n FROM log l JOIN (
         SELECT key, MAX(id) AS id FROM log WHERE key > ? AND key < ? AND id <= ? GROUP BY key
       ) m ON l.id = m.id WHERE l.deleted = 0`,
    ),
    countOpen: db.prepare(
      `SELECT COUNT(*) AS n FROM log l JOIN (
         SELECT key, MAX(id) AS id FROM log WHERE key > ? AND id <= ? GROUP BY key
       ) m ON l.id = m.id WHERE l.deleted = 0`,
    ),
    since: db.prepare('SELECT * FROM log WHERE id > ? AND id <= ? ORDER BY id'),
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    compactSuperseded: db.prepare(
      `DELETE FROM log WHERE id <= ? AND id < (
         SELECT MAX(l2.id) FROM log l2 WHERE l2.key = log.key AND l2.id <= ?)`,
    ),
    compactTombstones: db.prepare('DELETE FROM log WHERE id <= ? AND deleted = 1'),
  };
}

/**
 * A damaged page met at run time is `Corrupt` (the server answers 500 naming the file), a failing
 * or full disk `Unavailable`; anything else (a StoreError of the contract) passes unchanged.
 */
export function toSqliteStoreError(path: string, e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return e;
  const message = `${path}: ${e instanceof Error ? e.message : String(e)} (${code})`;
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return new StoreError('Corrupt', message);
  return new StoreError('Unavailable', message);
}

/** The KeyValue of a log row (its key decoded unless given). */
export function toKeyValue(row: Row, key = decodeKey(row.key)): KeyValue {
  return { key, value: row.value, createRevision: row.created, modRevision: row.id };
}
