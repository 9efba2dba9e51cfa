import type { ApiObject, Status } from '@orchard/meta';
import { ClientError, isClientError, isGone } from './errors.js';
import { listAll } from './list-pager.js';
import type { RestClient } from './rest-client.js';
import { decodeWatchEvents } from './watch-decoder.js';

/** Callbacks an informer calls as its cache changes. */
export interface InformerHandlers<T extends ApiObject = ApiObject> {
  onAdd?: (obj: T) => void;
  onUpdate?: (oldObj: T, newObj: T) => void;
  onDelete?: (obj: T) => void;
  /** A list or watch failed (the informer keeps going, with backoff). */
  onError?: (err: unknown) => void;
}

/**
 * What an informer lists and watches (client, path, selectors, page size, bookmarks, watch timeouts)
 * plus its handlers.
 */
export interface InformerOptions<T extends ApiObject = ApiObject> extends InformerHandlers<T> {
  client: RestClient;
  /** Collection path, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size of lists (default 500). */
  pageSize?: number;
  /** Ask for BOOKMARK events (default true). */
  allowWatchBookmarks?: boolean;
  /** `timeoutSeconds` of each watch (default: random in [300, 600), as client-go). */
  timeoutSeconds?: () => number;
  /** Backoff after a failure: initial and maximum delay in ms (default 100 → 30 000, doubling). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Cache key (default `<namespace>/<name>` or `<name>`). */
  keyOf?: (obj: T) => string;
}

/** Counters of an informer: lists, watches, relists after a 410, events and bookmarks. */
export interface InformerStats {
  lists: number;
  watches: number;
  /** Lists caused by a 410 (window or token expired). */
  relistsAfterGone: number;
  events: number;
  bookmarks: number;
}

/**
 * A reflector plus a store of current objects (the client duties of spec doc 1 §4.6): list (paged),
 * then watch from the list's resourceVersion with bookmarks; after a disconnect resume from the last
 * resourceVersion seen (event or bookmark); on 410 (HTTP status or ERROR event) clear, relist with a
 * consistent read, and watch again. Handlers see add/update/delete diffs, including across relists.
 */
export interface Informer<T extends ApiObject = ApiObject> {
  start(): void;
  stop(): Promise<void>;
  /** Resolves after the first list has been applied. */
  synced(): Promise<void>;
  hasSynced(): boolean;
  list(): T[];
  get(key: string): T | undefined;
  /** The resourceVersion the informer will resume from. */
  readonly resourceVersion: string;
  readonly stats: InformerStats;
}

const defaultKey = (o: ApiObject) =>
  o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : String(o.metadata?.name);

/**
 * A list-then-watch cache of one collection (reflector + informer): it resumes a broken watch from the
 * last resourceVersion and relists on 410 (spec doc 1 §4.6–4.7).
 */
export function createInformer<T extends ApiObject = ApiObject>(o: InformerOptions<T>): Informer<T> {
  const keyOf = o.keyOf ?? defaultKey;
  const items = new Map<string, T>();
  const stats: InformerStats = { lists: 0, watches: 0, relistsAfterGone: 0, events: 0, bookmarks: 0 };
  let rv = '';
  let running = false;
  let abort: AbortController | undefined;
  let loop: Promise<void> | undefined;
  let hasSynced = false;
  let resolveSynced!: () => void;
  const syncedPromise = new Promise<void>((r) => {
    resolveSynced = r;
  });
  const initialMs = o.backoff?.initialMs ?? 100;
  const maxMs = o.backoff?.maxMs ?? 30_000;
  const timeoutSeconds = o.timeoutSeconds ?? (() => 300 + Math.floor(Math.random() * 300));

  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });

  function replace(list: T[]): void {
    const seen = new Set<string>();
    for (const obj of list) {
      const k = keyOf(obj);
      seen.add(k);
      const old = items.get(k);
      items.set(k, obj);
      if (!old) o.onAdd?.(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) o.onUpdate?.(old, obj);
    }
    for (const [k, old] of [...items]) {
      if (!seen.has(k)) {
        items.delete(k);
        o.onDelete?.(old);
      }
    }
  }

  /** Returns when the watch ended normally; throws `gone` on 410, other errors as they are. */
  async function watchOnce(signal: AbortSignal): Promise<number> {
    stats.watches++;
    const res = await o.client.stream({
      path: o.path,
      query: {
        watch: 1,
        resourceVersion: rv,
        allowWatchBookmarks: (o.allowWatchBookmarks ?? true) || undefined,
        timeoutSeconds: timeoutSeconds(),
        labelSelector: o.labelSelector,
        fieldSelector: o.fieldSelector,
      },
      signal,
    });
    let n = 0;
    for await (const ev of decodeWatchEvents<T>(res.body)) {
      n++;
      if (ev.type === 'ERROR') {
        const st = ev.object as unknown as Status;
        throw new ClientError('Status', st.code ?? 500, st.message ?? 'watch error', { body: st });
      }
      const obj = ev.object;
      const evRv = obj.metadata?.resourceVersion;
      if (ev.type === 'BOOKMARK') {
        stats.bookmarks++;
        if (evRv) rv = evRv;
        continue;
      }
      stats.events++;
      const k = keyOf(obj);
      const old = items.get(k);
      if (ev.type === 'DELETED') {
        items.delete(k);
        o.onDelete?.(obj);
      } else {
        items.set(k, obj);
        if (old) o.onUpdate?.(old, obj);
        else o.onAdd?.(obj);
      }
      if (evRv) rv = evRv;
    }
    return n;
  }

  async function run(signal: AbortSignal): Promise<void> {
    let needList = true;
    // First list from any version (cheap, from the cache); after a 410 a consistent read.
    let listRv: string | undefined = '0';
    let delay = initialMs;
    while (!signal.aborted) {
      try {
        if (needList) {
          stats.lists++;
          const res = await listAll<T>(o.client, o.path, {
            pageSize: o.pageSize ?? 500,
            resourceVersion: listRv,
            labelSelector: o.labelSelector,
            fieldSelector: o.fieldSelector,
            signal,
          });
          replace(res.items);
          rv = res.resourceVersion;
          needList = false;
          if (!hasSynced) {
            hasSynced = true;
            resolveSynced();
          }
        }
        const n = await watchOnce(signal);
        if (n > 0) delay = initialMs;
        else {
          // An empty watch that ended: back off a little before re-watching.
          await sleep(delay, signal);
          delay = Math.min(delay * 2, maxMs);
        }
      } catch (e) {
        if (signal.aborted) return;
        if (isGone(e)) {
          // The version we hold is gone: relist (consistent read) and start over. Upstream clears the cache.
          stats.relistsAfterGone++;
          needList = true;
          listRv = undefined;
          continue;
        }
        o.onError?.(e);
        if (isClientError(e, 'Status') && e.retryAfterSeconds !== undefined) {
          await sleep(e.retryAfterSeconds * 1000, signal);
        } else {
          await sleep(delay, signal);
          delay = Math.min(delay * 2, maxMs);
        }
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      abort = new AbortController();
      loop = run(abort.signal);
    },
    async stop() {
      running = false;
      abort?.abort();
      await loop;
    },
    synced: () => syncedPromise,
    hasSynced: () => hasSynced,
    list: () => [...items.values()],
    get: (k) => items.get(k),
    get resourceVersion() {
      return rv;
    },
    stats,
  };
}
