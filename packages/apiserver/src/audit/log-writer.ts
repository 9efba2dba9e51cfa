/**
 * The audit log backend (`--audit-log-path`, `-` for standard output): JSON lines appended without
 * blocking the request that produced them. Lines are queued and written in batches by one writer
 * loop (asynchronous file I/O); with `maxSizeBytes` the file is rotated before a write would make it
 * larger (the old one renamed `<name>-<UTC time><ext>`, as upstream's lumberjack does) and only the
 * newest `maxBackups` rotated files are kept (0 keeps all). `close()` writes what is queued.
 */
import { type FileHandle, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/** Options of `createAuditLogWriter`. Not mutated. */
export interface AuditLogWriterOptions {
  /** The log file, or `-` for standard output. */
  readonly path: string;
  /** Rotate before the file would exceed this many bytes (`--audit-log-maxsize` MB); 0 = never. */
  readonly maxSizeBytes: number;
  /** Rotated files kept, newest first (`--audit-log-maxbackup`); 0 = all. */
  readonly maxBackups: number;
  /** Queued bytes beyond which new lines are dropped (and counted) rather than held. Default 64 MiB. */
  readonly maxQueuedBytes?: number;
  /** Where write failures and drops are reported. */
  readonly onError: (message: string, error?: unknown) => void;
  /** The clock of rotated file names. Default `Date.now`. */
  readonly now?: () => number;
}

/** Where audit events go, one JSON text per event. */
export interface AuditLogWriter {
  /** Queues one line (a JSON text without the newline); never blocks, never throws. */
  write(line: string): void;
  /** Resolves when everything queued so far is written. */
  flush(): Promise<void>;
  /** Writes what is queued and closes the file; later writes are dropped. */
  close(): Promise<void>;
  /** Lines dropped because the queue was full or the writer closed. */
  readonly dropped: number;
}

/** The name a rotated file gets: `audit-2026-11-26T07-01-02.345.log` for `audit.log`. */
export function backupName(path: string, at: number): string {
  const ext = extname(path);
  const stem = basename(path, ext);
  const stamp = new Date(at).toISOString().replace(/:/g, '-').replace(/Z$/, '');
  return join(dirname(path), `${stem}-${stamp}${ext}`);
}

/** Creates the writer; the file is opened on the first write (append mode, created 0600). */
export function createAuditLogWriter(options: AuditLogWriterOptions): AuditLogWriter {
  const maxQueued = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const toStdout = options.path === '-';
  let queue: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let closed = false;
  let file: FileHandle | undefined;
  let size = 0;
  let running: Promise<void> | undefined;

  async function openFile(): Promise<FileHandle> {
    if (file) return file;
    file = await open(options.path, 'a', 0o600);
    size = (await stat(options.path)).size;
    return file;
  }

  async function prune(): Promise<void> {
    if (options.maxBackups <= 0) return;
    const ext = extname(options.path);
    const stem = basename(options.path, ext);
    const dir = dirname(options.path);
    const pattern = new RegExp(
      `^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3}${ext.replace(/\./g, '\\.')}$`,
    );
    const backups = (await readdir(dir)).filter((f) => pattern.test(f)).sort();
    for (const old of backups.slice(0, Math.max(0, backups.length - options.maxBackups)))
      await unlink(join(dir, old));
  }

  async function rotate(): Promise<void> {
    await file?.close();
    file = undefined;
    await rename(options.path, backupName(options.path, now()));
    await prune();
  }

  async function writeBatch(batch: string): Promise<void> {
    if (toStdout) {
      await new Promise<void>((resolve) => {
        if (process.stdout.write(batch)) resolve();
        else process.stdout.once('drain', resolve);
      });
      return;
    }
    const bytes = Buffer.from(batch, 'utf8');
    let fh = await openFile();
    if (options.maxSizeBytes > 0 && size > 0 && size + bytes.length > options.maxSizeBytes) {
      await rotate();
      fh = await openFile();
    }
    await fh.write(bytes);
    size += bytes.length;
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      // One batch at a time; a batch never straddles the size limit by more than itself.
      let take = queue.length;
      if (options.maxSizeBytes > 0) {
        let bytes = 0;
        take = 0;
        while (take < queue.length) {
          bytes += Buffer.byteLength(queue[take] as string);
          if (take > 0 && bytes > options.maxSizeBytes) break;
          take++;
        }
      }
      const lines = queue.slice(0, take);
      queue = queue.slice(take);
      const batch = lines.join('');
      queuedBytes -= batch.length;
      try {
        await writeBatch(batch);
      } catch (e) {
        dropped += lines.length;
        options.onError(`audit log ${options.path}: write failed, ${lines.length} events lost`, e);
      }
    }
  }

  function kick(): Promise<void> {
    running ??= (async () => {
      // Let the current tick's lines join the batch.
      await new Promise((r) => setImmediate(r));
      await drain();
    })().finally(() => {
      running = undefined;
      if (queue.length > 0) void kick();
    });
    return running;
  }

  return {
    write(line) {
      if (closed || queuedBytes + line.length > maxQueued) {
        if (dropped++ === 0 && !closed)
          options.onError(`audit log ${options.path}: more than ${maxQueued} bytes queued, dropping events`);
        return;
      }
      queue.push(`${line}\n`);
      queuedBytes += line.length + 1;
      void kick();
    },
    async flush() {
      while (running || queue.length > 0) await (running ?? kick());
    },
    async close() {
      await this.flush();
      closed = true;
      await file?.close();
      file = undefined;
    },
    get dropped() {
      return dropped;
    },
  };
}
