/**
 * Automatic reload of a configuration file (doc 2 §2.5, §2.6): the file is checked on a timer and,
 * when asked, on every change the file system reports; a valid new content replaces the one in force,
 * an invalid one is logged and the last good one stays. Shared by the authentication and the
 * authorization configuration controllers.
 */
import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, statSync, watch } from 'node:fs';
import { createGauge, type Gauge } from './gauge.js';

/**
 * What one check of the configuration file did: `unchanged` (same file), `reloaded` (a valid new
 * configuration is now in force) or `failed` (the edit was rejected and logged; the last good configuration
 * stays in force).
 */
export type ReloadOutcome = 'unchanged' | 'reloaded' | 'failed';

/** The two reload metrics of a configuration controller, plain gauges until the server exports `/metrics`. */
export interface ReloadMetrics {
  /** `..._automatic_reload_last_timestamp_seconds{status}`: epoch seconds of the last attempt. */
  readonly lastReloadTimestamp: Gauge;
  /** `..._automatic_reloads_total{status}`: attempts, `success` | `failure`. */
  readonly reloads: Gauge;
}

/**
 * The reload metrics named `<prefix>_automatic_reload_last_timestamp_seconds` and
 * `<prefix>_automatic_reloads_total` (upstream's names), `what` naming the configuration in their help.
 */
export function createReloadMetrics(prefix: string, what: string): ReloadMetrics {
  return {
    lastReloadTimestamp: createGauge(
      `${prefix}_automatic_reload_last_timestamp_seconds`,
      `Timestamp of the last automatic reload of ${what} split by status.`,
    ),
    reloads: createGauge(
      `${prefix}_automatic_reloads_total`,
      `Total number of automatic reloads of ${what} split by status.`,
    ),
  };
}

/** Options of `createConfigFileReloader`. Not mutated. */
export interface ConfigFileReloaderOptions<T> {
  /** The configuration file. */
  readonly path: string;
  /** Log prefix, e.g. `authentication config`. */
  readonly what: string;
  /**
   * Turns the file's text into the configuration in force; throws (an error naming file and field)
   * when the text is invalid. `previous` is the configuration in force (absent at the first load).
   */
  readonly build: (text: string, previous: T | undefined) => T;
  /** The line logged after a successful reload (default `reloaded <path>`). */
  readonly describe?: (loaded: T, previous: T) => string;
  readonly metrics: ReloadMetrics;
  /** Where reloads and rejected edits are reported. */
  readonly log: (message: string) => void;
  readonly now?: () => number;
  /** Makes the error thrown when the file cannot be read at the first load. */
  readonly fail: (message: string) => Error;
}

/** A configuration kept in force from its file (see the module doc). */
export interface ConfigFileReloader<T> {
  /** The configuration in force. */
  readonly current: T;
  /** Checks the file now (what the timer and the file watch do). Never throws. */
  check(): ReloadOutcome;
  /**
   * Checks every `intervalMs` and, with `watchFile`, whenever the file system reports a change of the
   * file (idempotent; neither keeps the process alive).
   */
  start(intervalMs: number, watchFile?: boolean): void;
  stop(): void;
}

/**
 * Loads the file once (a bad or unreadable file throws: a start-up error) and returns the reloader.
 * A check compares a cheap fingerprint (inode, size, mtime), then the content hash, so an unchanged
 * file is never parsed again and a rejected content is not retried until it changes.
 */
export function createConfigFileReloader<T>(options: ConfigFileReloaderOptions<T>): ConfigFileReloader<T> {
  const o = options;
  const now = o.now ?? Date.now;
  const read = (): { text: string; hash: string } => {
    let text: string;
    try {
      text = readFileSync(o.path, 'utf8');
    } catch (e) {
      throw o.fail(`${o.path}: cannot read: ${(e as Error).message}`);
    }
    return { text, hash: createHash('sha256').update(text).digest('hex') };
  };
  const fingerprint = (): string => {
    try {
      const s = statSync(o.path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return 'missing';
    }
  };
  let lastSeen = fingerprint();
  const first = read();
  let current = o.build(first.text, undefined);
  let currentHash = first.hash;
  let rejectedHash: string | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let watcher: FSWatcher | undefined;
  const record = (status: 'success' | 'failure') => {
    o.metrics.lastReloadTimestamp.set(now() / 1000, { status });
    o.metrics.reloads.set((o.metrics.reloads.get({ status }) ?? 0) + 1, { status });
  };
  const keep = (e: unknown): ReloadOutcome => {
    record('failure');
    o.log(`${o.what}: keeping the last good configuration: ${(e as Error)?.message ?? String(e)}`);
    return 'failed';
  };
  function check(): ReloadOutcome {
    const fp = fingerprint();
    if (fp === lastSeen) return 'unchanged';
    lastSeen = fp;
    let next: { text: string; hash: string };
    try {
      next = read();
    } catch (e) {
      return keep(e);
    }
    if (next.hash === currentHash || next.hash === rejectedHash) return 'unchanged';
    try {
      const loaded = o.build(next.text, current);
      const previous = current;
      current = loaded;
      currentHash = next.hash;
      rejectedHash = undefined;
      record('success');
      o.log(`${o.what}: ${o.describe ? o.describe(loaded, previous) : `reloaded ${o.path}`}`);
      return 'reloaded';
    } catch (e) {
      rejectedHash = next.hash;
      return keep(e);
    }
  }
  return {
    get current() {
      return current;
    },
    check,
    start(intervalMs, watchFile = false) {
      if (!timer) {
        timer = setInterval(check, intervalMs);
        timer.unref?.();
      }
      if (watchFile && !watcher) {
        try {
          watcher = watch(o.path, { persistent: false }, () => check());
          watcher.on('error', () => undefined);
        } catch {
          // No file watch on this file system: the timer alone notices changes.
        }
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      watcher?.close();
      watcher = undefined;
    },
  };
}
