import { errors, initialEventsEndAnnotation, type StoredObject } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import { toApiError } from '../errors.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { compileFilter } from '../request/selectors.js';
import { WatchStream } from '../response/watch.js';
import { responseEncoding } from '../response/write.js';
import { keyParts, parseResourceVersion } from './common.js';

/**
 * watch (spec doc 1 §4.6): a chunked stream of events.
 * - resourceVersion unset or `0`: synthetic ADDED events for the current state, then changes.
 * - resourceVersion N: changes after N only; 410 Expired when N is below the compacted revision.
 * - `sendInitialEvents=true` with bookmarks: a BOOKMARK annotated `<domain>/initial-events-end` after the initial state.
 * Selectors apply to both the old and new object, so an object leaving the selection is a DELETED
 * event and one entering it is ADDED. Ends at `timeoutSeconds`, a randomized server timeout, client
 * disconnect or server shutdown.
 */
export async function handleWatch(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const q = ctx.query;
  const filter = compileFilter(def, q.labelSelector, q.fieldSelector);
  const onlyName = ctx.info.name !== '' ? ctx.info.name : undefined;
  const matches = (o: StoredObject | undefined): boolean =>
    o !== undefined &&
    (onlyName === undefined || o.metadata.name === onlyName) &&
    (filter.empty || filter.matches(o));
  const objects = ctx.server.objects;
  const prefix = objects.prefix(keyParts(ctx, def));
  const enc = responseEncoding(ctx, true);

  const rv = q.resourceVersion;
  const sendInitial = q.sendInitialEvents ?? (rv === undefined || rv === '' || rv === '0');
  if (q.sendInitialEvents === true && q.resourceVersionMatch !== 'NotOlderThan') {
    throw errors.invalid('', 'ListOptions', '', [
      {
        reason: 'FieldValueForbidden',
        field: 'sendInitialEvents',
        message:
          'Forbidden: sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan',
      },
    ]);
  }
  let initial: StoredObject[] = [];
  let from: number;
  if (sendInitial) {
    const list = await objects.list(prefix);
    initial = list.items.filter(matches);
    from = list.revision;
  } else {
    from = parseResourceVersion(rv as string);
    const compacted = await ctx.server.store.compactedRevision();
    if (from < compacted) throw errors.expired(`too old resource version: ${from} (${compacted})`);
  }

  const abort = new AbortController();
  const stop = () => abort.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  const min = ctx.server.options.minRequestTimeoutSeconds;
  const timeoutSeconds = q.timeoutSeconds ?? min * (1 + Math.random());
  const timer = setTimeout(stop, Math.max(0, timeoutSeconds) * 1000);
  const stream = new WatchStream(ctx, enc);
  try {
    for (const o of initial) await stream.send('ADDED', o);
    if (q.sendInitialEvents === true && q.allowWatchBookmarks) {
      await stream.send('BOOKMARK', {
        kind: def.kind,
        apiVersion: def.group === '' ? ctx.version : `${def.group}/${ctx.version}`,
        metadata: {
          resourceVersion: String(from),
          annotations: { [initialEventsEndAnnotation(ctx.server.flavor.domain)]: 'true' },
        },
      });
    }
    if (abort.signal.aborted) return;
    try {
      for await (const ev of objects.watch(prefix, from, abort.signal)) {
        const now = ev.type === 'DELETED' ? false : matches(ev.object);
        const before =
          ev.type === 'ADDED'
            ? false
            : ev.type === 'DELETED'
              ? matches(ev.previous ?? ev.object)
              : matches(ev.previous);
        if (now && before) await stream.send('MODIFIED', ev.object);
        else if (now) await stream.send('ADDED', ev.object);
        else if (before) await stream.send('DELETED', ev.object);
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      // Headers are out: errors become an ERROR event carrying the Status (as upstream does).
      const api = toApiError(e, { group: def.group, resource: def.resource, name: '' }, ctx.server.log.error);
      await stream.send('ERROR', api.toStatus());
    }
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', stop);
    stream.end();
  }
}
