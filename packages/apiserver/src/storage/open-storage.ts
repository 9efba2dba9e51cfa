import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createMemoryStore, isStoreError, type Store } from '@orchard/store';

/** The storage backends `openStorage` knows (CLI `--storage`). */
export const storageBackends = Object.freeze(['sqlite', 'memory'] as const);
export type StorageBackend = (typeof storageBackends)[number];

export function isStorageBackend(name: string): name is StorageBackend {
  return (storageBackends as readonly string[]).includes(name);
}

export interface StorageOptions {
  /** Which backend. Default `sqlite` (durable, in `dataDir`). */
  readonly backend: StorageBackend;
  /** Directory of the durable state (CLI `--data-dir`, default `.orchard`); the SQLite file lives in it. */
  readonly dataDir: string;
}

export const defaultStorageOptions: Readonly<StorageOptions> = Object.freeze({
  backend: 'sqlite',
  dataDir: '.orchard',
});

/** The SQLite database of a data directory. */
export function sqliteDatabasePath(dataDir: string): string {
  return join(resolve(dataDir), 'orchard.sqlite');
}

/** A storage backend opened for the server; `close()` is the opener's job (the server does not own it). */
export interface OpenedStorage {
  readonly store: Store;
  /** One line for the start-up log: the backend and where its data is. */
  readonly description: string;
  /** Whether objects outlive the process. */
  readonly durable: boolean;
}

/** A backend that could not be opened; the message names the file and what is wrong with it. */
export class StorageOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageOpenError';
  }
}

/**
 * Opens the storage backend named by `options.backend`: the one place that switches on it, so a new
 * backend (etcd) is one more case here. Durable backends are loaded with a dynamic import only when
 * chosen, so running on memory never loads (or needs) a native addon.
 */
export async function openStorage(input: Partial<StorageOptions> = {}): Promise<OpenedStorage> {
  const options: StorageOptions = { ...defaultStorageOptions, ...input };
  switch (options.backend) {
    case 'memory':
      return {
        store: createMemoryStore(),
        description: 'memory (nothing survives a restart)',
        durable: false,
      };
    case 'sqlite': {
      const path = sqliteDatabasePath(options.dataDir);
      try {
        mkdirSync(resolve(options.dataDir), { recursive: true, mode: 0o700 });
      } catch (e) {
        throw new StorageOpenError(
          `cannot create the data directory ${resolve(options.dataDir)}: ${message(e)}`,
        );
      }
      try {
        // The database holds every Secret: readable by its owner only (SQLite gives -wal/-shm the same mode).
        closeSync(openSync(path, 'a', 0o600));
      } catch (e) {
        throw new StorageOpenError(`cannot create ${path}: ${message(e)}`);
      }
      let mod: typeof import('@orchard/store-sqlite');
      try {
        mod = await import('@orchard/store-sqlite');
      } catch (e) {
        throw new StorageOpenError(
          `--storage sqlite needs @orchard/store-sqlite and its native addon better-sqlite3, which failed to load (${message(e)}); rebuild it (pnpm rebuild better-sqlite3) or run with --storage memory`,
        );
      }
      try {
        return { store: mod.createSqliteStore({ path }), description: `sqlite ${path}`, durable: true };
      } catch (e) {
        if (isStoreError(e, 'Corrupt'))
          throw new StorageOpenError(
            `${path} is not a readable SQLite database; move it away to start empty, or restore a backup (${sqliteCause(e)})`,
          );
        if (isStoreError(e, 'Unavailable') && /in use/.test(e.message))
          throw new StorageOpenError(
            `${path} is held by another running server; one data directory serves one server at a time (${sqliteCause(e)})`,
          );
        throw new StorageOpenError(`cannot open ${path}: ${message(e)}`);
      }
    }
  }
}

/** SQLite's own words, after the store's "<path> is …:" prefix. */
function sqliteCause(e: Error): string {
  const i = e.message.lastIndexOf(': ');
  return i < 0 ? e.message : e.message.slice(i + 2);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
