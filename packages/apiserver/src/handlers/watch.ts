import type { StoredObject } from '@orchard/meta';
import { planWatch } from '@orchard/pager';
import type { CacheWatcher } from '@orchard/watch-cache';
import type { RequestContext } from '../context.js';
import { toApiError } from '../errors.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { compileFilter } from '../request/selectors.js';
import { checkWatchListGate } from '../request/watch-list-gate.js';
import { WatchStream } from '../response/watch.js';
import { responseEncoding } from '../response/write.js';
import { keyParts } from './common.js';

/** BOOKMARK objects by the metadata the cache shares among the watchers it bookmarks at once. */
const bookmarks = new WeakMap<object, { kind: string; apiVersion: string; metadata: object }>();

/** The BOOKMARK object for `metadata`: one for every watcher of a batch, so it is encoded once. */
function sharedBookmark(kind: string, apiVersion: string, metadata: object): object {
  const b = bookmarks.get(metadata);
  if (b && b.kind === kind && b.apiVersion === apiVersion) return b;
  const fresh = { kind, apiVersion, metadata };
  bookmarks.set(metadata, fresh);
  return fresh;
}

/**
 * watch (spec doc 1 §4.6), served from the resource's watch cache as a chunked stream of events.
 * - resourceVersion unset: synthetic ADDED events for the state at Most Recent, then changes;
 *   `0`: the same from the cache's current state; N: changes after N only.
 * - N older than the cache's window: HTTP 410 Expired before the stream starts; a watch the cache
 *   ends later (re-initialization) gets an ERROR event carrying a 410 Status, then the stream closes.
 * - N the store has not reached: waits briefly, then 504 with Retry-After.
 * - `allowWatchBookmarks`: periodic BOOKMARKs whose object has only `metadata.resourceVersion`.
 * - `sendInitialEvents=true` with `resourceVersionMatch=NotOlderThan`: initial ADDED events, then (with
 *   bookmarks) a BOOKMARK annotated `<domain>/initial-events-end: "true"`, then changes.
 * - Selectors apply to the old and the new object: leaving the selection is DELETED, entering ADDED.
 * - A watcher that falls too far behind is closed; the client resumes from its last resourceVersion.
 * Ends at `timeoutSeconds`, a randomized server timeout, client disconnect or server shutdown.
 */
export async function handleWatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const q = ctx.query;
  checkWatchListGate(q.sendInitialEvents, ctx.server.options.featureGates, ctx.server.flavor);
  const filter = compileFilter(def, q.labelSelector, q.fieldSelector);
  const onlyName = ctx.info.name !== '' ? ctx.info.name : undefined;
  const plan = planWatch({
    resourceVersion: q.resourceVersion,
    resourceVersionMatch: q.resourceVersionMatch,
    sendInitialEvents: q.sendInitialEvents,
    allowWatchBookmarks: q.allowWatchBookmarks,
  });
  const predicate =
    filter.empty && onlyName === undefined
      ? undefined
      : (o: StoredObject) =>
          (onlyName === undefined || o.metadata.name === onlyName) && (filter.empty || filter.matches(o));
  const keyPrefix = ctx.server.objects.prefix(keyParts(ctx, def));
  const enc = responseEncoding(ctx, true);
  const apiVersion = def.group === '' ? ctx.version : `${def.group}/${ctx.version}`;

  // Errors up to here (400, 410, 504) are answered as HTTP statuses: no header has been sent.
  const watcher: CacheWatcher<StoredObject> = await ctx.server.watchCaches.for(def).watch({
    start: plan.start,
    initialEvents: plan.initialEvents,
    initialEventsEndBookmark: plan.initialEventsEndBookmark,
    allowBookmarks: plan.allowBookmarks,
    keyPrefix,
    ...(predicate ? { predicate } : {}),
  });

  const stop = () => watcher.close();
  ctx.signal.addEventListener('abort', stop, { once: true });
  if (ctx.signal.aborted) stop();
  const min = ctx.server.options.minRequestTimeoutSeconds;
  const timeoutSeconds = q.timeoutSeconds ?? min * (1 + Math.random());
  const timer = setTimeout(stop, Math.max(0, timeoutSeconds) * 1000);
  // As upstream, a BOOKMARK shortly before the deadline lets the client resume from a fresh version.
  const cache = ctx.server.watchCaches.for(def);
  const lastBookmark =
    plan.allowBookmarks && timeoutSeconds >= 2
      ? setTimeout(() => cache.sendBookmark(watcher), (timeoutSeconds - 1) * 1000)
      : undefined;
  const bookmarkOf = (metadata: StoredObject['metadata']) => sharedBookmark(def.kind, apiVersion, metadata);
  let stream: WatchStream | undefined;
  try {
    const out = new WatchStream(ctx, enc);
    stream = out;
    // Push mode: the cache hands each burst of events over synchronously and the handler writes them
    // to the stream, which holds them while the socket pushes back. A client that stays behind past
    // the limit is closed (it resumes from the last resourceVersion it received), so it never
    // stalls the cache or other watchers. What the watcher holds now is its backlog or initial state.
    out.onSlowReader(() => watcher.close());
    let initialLeft = watcher.buffered;
    await new Promise<void>((resolve) => {
      watcher.listen((events) => {
        for (const ev of events) {
          out.markInitial(initialLeft-- > 0);
          if (ev.type === 'ERROR') {
            const api = toApiError(
              ev.error,
              { group: def.group, resource: def.resource, name: '' },
              ctx.server.log.error,
            );
            out.send('ERROR', api.toStatus());
            watcher.close();
            return;
          }
          if (ev.type === 'BOOKMARK') out.send('BOOKMARK', bookmarkOf(ev.object.metadata));
          else out.send(ev.type, ev.object);
        }
      }, resolve);
    });
  } finally {
    clearTimeout(timer);
    if (lastBookmark) clearTimeout(lastBookmark);
    ctx.signal.removeEventListener('abort', stop);
    watcher.close();
    stream?.end();
  }
}
