/** The database file, automatic compaction and group commit of the SQLite store. */
export interface SqliteStoreOptions {
  /** The database file (created when missing). Required. */
  path: string;
  /**
   * Compact history automatically, keeping this many revisions (0 = never; compaction is then the
   * caller's job, as with etcd). Default 0.
   */
  autoCompactRetainRevisions?: number;
  /**
   * Most writes committed (and fsynced) together when writers queue up: group commit. A write is
   * acknowledged only after the commit that holds it. Default 1000.
   */
  maxBatchWrites?: number;
  /**
   * Check the file's page structure at open (`PRAGMA quick_check`, one pass over the file) and refuse
   * a damaged one with `Corrupt`, rather than serving until a read reaches a bad page. Default true.
   */
  checkOnOpen?: boolean;
}

/** Defaults of `SqliteStoreOptions`. */
export const defaultSqliteStoreOptions: Readonly<Required<Omit<SqliteStoreOptions, 'path'>>> = Object.freeze({
  autoCompactRetainRevisions: 0,
  maxBatchWrites: 1000,
  checkOnOpen: true,
});
