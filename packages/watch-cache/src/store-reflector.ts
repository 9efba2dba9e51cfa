import { followStoreWatch, type KeyValue, type Store, type StoreEvent } from '@orchard/store';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Longest pause between two re-list attempts while the store keeps failing. */
const maxRetryDelayMs = 5000;

/** Where the reflector delivers what it reads from the store. */
export interface ReflectorSink {
  /** A complete list of the prefix at `revision`: replaces the state. */
  replace(kvs: KeyValue[], revision: number): void;
  /** One event of the progress prefix, in revision order. */
  apply(ev: StoreEvent): void;
  /**
   * The store watch ended on its own (`error` set when it failed rather than closed): end every
   * watcher and re-list (by calling `load`). Rejects when the re-list fails.
   */
  restart(error: unknown): Promise<void>;
}

export interface StoreReflectorOptions {
  prefix: string;
  progressPrefix: string;
  replayHistory: boolean;
  pollIntervalMs: number;
  onStoreError?: ((error: unknown) => void) | undefined;
}

/**
 * Keeps the cache in step with the store, as upstream's reflector: lists the resource at one
 * revision, then follows the store's watch from there. When that watch ends on its own (compacted
 * under it, or failed) it re-lists; a failure is reported (`onStoreError`, `errors`) and the re-list
 * retried with a growing pause while the store keeps failing.
 */
export class StoreReflector {
  /** How many store failures (watch or re-list) the reflector has seen. */
  errors = 0;
  private generation = 0;
  private abort: AbortController | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly o: StoreReflectorOptions,
    private readonly sink: ReflectorSink,
  ) {}

  /** Lists the prefix and starts following the store from the list's revision; resolves once the list is applied. */
  async load(): Promise<void> {
    this.abort?.abort();
    const gen = ++this.generation;
    const { kvs, revision } = await this.listAll();
    if (this.stopped || gen !== this.generation) return;
    this.sink.replace(kvs, revision);
    const abort = new AbortController();
    this.abort = abort;
    void this.follow(gen, revision, abort.signal);
  }

  /**
   * A list the cache started (the first one, or `restart()`'s) failed: report it and keep re-listing,
   * with the same growing pause as after a failed watch, until one succeeds or the cache stops.
   */
  recoverFromFailedList(error: unknown): void {
    if (this.stopped) return;
    this.report(error);
    void this.recover(this.generation, error);
  }

  /** Stops following the store (a pending re-list is abandoned). */
  stop(): void {
    this.stopped = true;
    this.generation++;
    this.abort?.abort();
  }

  /** The whole prefix at one revision, read in pages. */
  private async listAll(): Promise<{ kvs: KeyValue[]; revision: number }> {
    let res = await this.initialList();
    const kvs = [...res.kvs];
    while (res.remaining > 0 && res.kvs.length > 0) {
      const last = res.kvs[res.kvs.length - 1] as KeyValue;
      res = await this.store.list(this.o.prefix, { atRevision: res.revision, startKey: `${last.key}\x00` });
      kvs.push(...res.kvs);
    }
    return { kvs, revision: res.revision };
  }

  private async initialList(): Promise<Awaited<ReturnType<Store['list']>>> {
    if (this.o.replayHistory) {
      try {
        const at = await this.store.compactedRevision();
        // Revision 0 means "current" to a store (as to etcd); the state before any write is empty.
        if (at === 0) return { kvs: [], revision: 0, remaining: 0 };
        return await this.store.list(this.o.prefix, { atRevision: at });
      } catch {
        // Compacted meanwhile: start now.
      }
    }
    return this.store.list(this.o.prefix, {});
  }

  private async follow(gen: number, from: number, signal: AbortSignal): Promise<void> {
    let error: unknown;
    try {
      await followStoreWatch(
        this.store.watch(this.o.progressPrefix, { fromRevision: from, signal }),
        (ev) => {
          // A newer generation (a re-list) replaced this watch: it stops here.
          if (gen !== this.generation) return false;
          this.sink.apply(ev);
          return true;
        },
      );
      if (signal.aborted || this.stopped || gen !== this.generation) return;
    } catch (e) {
      if (signal.aborted || this.stopped || gen !== this.generation) return;
      error = e;
      this.report(e);
    }
    await this.recover(gen, error);
  }

  /** Re-lists after the store watch ended, retrying while the store fails and nobody else re-listed. */
  private async recover(gen: number, error: unknown): Promise<void> {
    let delay = this.o.pollIntervalMs;
    let cause = error;
    for (;;) {
      await sleep(delay);
      if (this.stopped || gen !== this.generation) return;
      try {
        await this.sink.restart(cause);
        return;
      } catch (e) {
        this.report(e);
        cause = e;
        // The failed re-list started a generation of its own; a newer one means someone else re-listed.
        gen = this.generation;
        delay = Math.min(Math.max(1, delay) * 2, maxRetryDelayMs);
      }
    }
  }

  private report(error: unknown): void {
    this.errors++;
    try {
      this.o.onStoreError?.(error);
    } catch {
      // A failing reporter must not stop the cache from recovering.
    }
  }
}
