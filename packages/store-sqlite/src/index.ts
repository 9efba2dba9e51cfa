/**
 * @orchard/store-sqlite — the durable single-machine Store backend: a kine-like revisioned log table
 * in SQLite (WAL, synchronous commits, one writer). It passes `runStoreConformance()` including
 * close/reopen. The native addon (better-sqlite3) is built only by those who install this package.
 */

export { checkSqliteFile } from './integrity.js';
export type { SqliteStoreOptions } from './sqlite-store.js';
export { createSqliteStore, defaultSqliteStoreOptions } from './sqlite-store.js';
