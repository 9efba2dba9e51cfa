import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { createMemoryStore, isStoreError, type Store } from '@orchard/store';

/** The storage backends `openStorage` knows (CLI `--storage`). */
export const storageBackends = Object.freeze(['sqlite', 'memory', 'etcd'] as const);
/** A `--storage` backend name. */
export type StorageBackend = (typeof storageBackends)[number];

/** Whether `name` is a backend `--storage` accepts. */
export function isStorageBackend(name: string): name is StorageBackend {
  return (storageBackends as readonly string[]).includes(name);
}

/** Which backend `openStorage` opens, its data directory and its etcd settings. */
export interface StorageOptions {
  /** Which backend. Default `sqlite` (durable, in `dataDir`). */
  readonly backend: StorageBackend;
  /** Directory of the durable state (CLI `--data-dir`, default `.orchard`); the SQLite file lives in it. */
  readonly dataDir: string;
  /** For `etcd`: the cluster (CLI `--etcd-servers`, `--etcd-prefix`, `--etcd-cafile/certfile/keyfile`). */
  readonly etcd?: EtcdStorageOptions;
}

/** Where the etcd backend keeps its data; the files are PEM paths, read at start. */
export interface EtcdStorageOptions {
  /** Client URLs of the members, e.g. `http://127.0.0.1:2379`. */
  readonly servers: readonly string[];
  /** Key prefix. Default `/registry`, as upstream's `--etcd-prefix`. */
  readonly prefix?: string;
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** How long start-up waits for the cluster to answer before giving up. Default 5_000 ms. */
  readonly startTimeoutMs?: number;
}

/** `--etcd-servers` entries: `http(s)://host:port`, as upstream's flag takes them. */
export function parseEtcdServers(value: string): string[] {
  const servers = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (servers.length === 0) throw new Error('no server given');
  for (const s of servers) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      throw new Error(`${s} is not a URL (want http://host:port or https://host:port)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`${s}: the scheme must be http or https`);
    if (url.port === '') throw new Error(`${s}: a port is required`);
  }
  return servers;
}

/** Defaults of `StorageOptions` (the CLI's `--storage` and `--data-dir` defaults). */
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
    case 'etcd':
      return openEtcdStorage(options.etcd, options.dataDir);
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

async function openEtcdStorage(o: EtcdStorageOptions | undefined, dataDir: string): Promise<OpenedStorage> {
  if (!o || o.servers.length === 0) throw new StorageOpenError('--storage etcd needs --etcd-servers');
  // The objects live in etcd; the data directory still keeps this server's certificates and token key.
  try {
    mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new StorageOpenError(`cannot create the data directory ${resolve(dataDir)}: ${message(e)}`);
  }
  const read = (flag: string, path: string | undefined): Buffer | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (e) {
      throw new StorageOpenError(`cannot read ${flag} ${path}: ${message(e)}`);
    }
  };
  const ca = read('--etcd-cafile', o.caFile);
  const cert = read('--etcd-certfile', o.certFile);
  const key = read('--etcd-keyfile', o.keyFile);
  if ((cert === undefined) !== (key === undefined))
    throw new StorageOpenError('--etcd-certfile and --etcd-keyfile go together');
  const mod = await import('@orchard/store-etcd');
  const prefix = o.prefix ?? mod.defaultEtcdStoreOptions.prefix;
  const tlsOptions =
    ca !== undefined || cert !== undefined
      ? {
          tls: {
            // Without --etcd-cafile the system's roots verify etcd's certificate.
            ca: ca ?? Buffer.from(tlsRootCertificates()),
            ...(cert !== undefined ? { cert } : {}),
            ...(key !== undefined ? { key } : {}),
          },
        }
      : {};
  const store = mod.createEtcdStore({ endpoints: o.servers, prefix, ...tlsOptions });
  // Unreachable at start is an error, not a server that answers 503 forever.
  const deadline = Date.now() + (o.startTimeoutMs ?? 5_000);
  for (;;) {
    try {
      await store.health();
      break;
    } catch (e) {
      if (Date.now() >= deadline) {
        await store.close().catch(() => undefined);
        throw new StorageOpenError(`cannot reach etcd at ${o.servers.join(',')}: ${message(e)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    store,
    description: `etcd ${o.servers.join(',')} prefix ${prefix}`,
    durable: true,
  };
}

function tlsRootCertificates(): string {
  return rootCertificates.join('\n');
}

/** SQLite's own words, after the store's "<path> is …:" prefix. */
function sqliteCause(e: Error): string {
  const i = e.message.lastIndexOf(': ');
  return i < 0 ? e.message : e.message.slice(i + 2);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
