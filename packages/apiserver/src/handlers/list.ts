import type { StoredObject } from '@orchard/meta';
import { buildListMeta, PagerError, planList } from '@orchard/pager';
import { isStoreError } from '@orchard/store';
import { isWatchCacheError, type ReadRevision } from '@orchard/watch-cache';
import type { RequestContext } from '../context.js';
import { featureEnabled } from '../feature-gates.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { compileFilter, type ObjectFilter } from '../request/selectors.js';
import { writeObject } from '../response/write.js';
import { corruptListError } from '../storage/corrupt-objects.js';
import { keyParts } from './common.js';

/** A page of a list: the items, the snapshot revision, the next start key, and how many remain. */
export interface ListPage {
  readonly items: StoredObject[];
  readonly revision: number;
  readonly continueKey: string | undefined;
  readonly remaining: number | undefined;
}

/**
 * Reads one page from the store at a consistent snapshot. With a filter, reads on until `limit`
 * matching items are found (as upstream fills pages), so a page may scan more than `limit` keys.
 */
export async function readPage(
  ctx: RequestContext,
  prefix: string,
  filter: ObjectFilter,
  options: { atRevision?: number; limit?: number; startKey?: string },
): Promise<ListPage> {
  const objects = ctx.server.objects;
  const limit = options.limit ?? 0;
  if (limit === 0) {
    const r = await objects.list(
      prefix,
      options.atRevision === undefined ? {} : { atRevision: options.atRevision },
    );
    return {
      items: filter.empty ? r.items : r.items.filter((o) => filter.matches(o)),
      revision: r.revision,
      continueKey: undefined,
      remaining: undefined,
    };
  }
  const items: StoredObject[] = [];
  let revision = options.atRevision;
  let startKey = options.startKey;
  for (;;) {
    const r = await objects.list(prefix, {
      limit: limit - items.length,
      ...(revision === undefined ? {} : { atRevision: revision }),
      ...(startKey === undefined ? {} : { startKey }),
    });
    revision = r.revision;
    for (const o of r.items) if (filter.empty || filter.matches(o)) items.push(o);
    if (r.remaining === 0 || r.lastKey === undefined) {
      return { items, revision, continueKey: undefined, remaining: undefined };
    }
    startKey = `${r.lastKey}\u0000`;
    if (items.length >= limit) {
      return { items, revision, continueKey: startKey, remaining: filter.empty ? r.remaining : undefined };
    }
  }
}

/**
 * list (spec doc 1 §4.5, §4.7), served from the resource's watch cache: every cell of the §4.5 table
 * (`planList`: Invalid cells → 400), limit/continue with signed, expiring tokens that pin the first
 * page's snapshot (410 Expired with a fresh inconsistent token when it is gone), `remainingItemCount`
 * only without selectors and before the last page, 410 for Exact outside the window, 504 + Retry-After
 * for a version the store has not reached.
 */
export async function handleList(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const q = ctx.query;
  const filter = compileFilter(def, q.labelSelector, q.fieldSelector);
  const parts = keyParts(ctx, def);
  const objects = ctx.server.objects;
  const caches = ctx.server.watchCaches;
  const codec = caches.continueCodec;
  const keyPrefix = objects.prefix(parts);
  const plan = planList({
    resourceVersion: q.resourceVersion,
    resourceVersionMatch: q.resourceVersionMatch,
    limit: q.limit,
    continue: q.continue,
    sendInitialEvents: q.sendInitialEvents,
  });
  let revision: ReadRevision;
  let startKey: string | undefined;
  if (plan.kind === 'Continue') {
    const token = await codec.decode(plan.token);
    if (!token.startKey.startsWith(keyPrefix)) {
      throw new PagerError('InvalidContinue', 'invalid continue token: it belongs to another collection', {
        field: 'continue',
      });
    }
    startKey = token.startKey;
    revision =
      token.revision === undefined ? { kind: 'MostRecent' } : { kind: 'Exact', revision: token.revision };
  } else {
    revision = plan;
  }
  const cache = caches.for(def);
  let page: Awaited<ReturnType<typeof cache.list>>;
  try {
    page = await cache.list({
      revision,
      keyPrefix,
      ...(startKey === undefined ? {} : { startKey }),
      ...(q.limit ? { limit: q.limit } : {}),
      ...(filter.empty ? {} : { predicate: (o: StoredObject) => filter.matches(o) }),
      // A continue page reads its snapshot from the store when the window no longer holds it.
      storeFallback: plan.kind === 'Continue',
    });
  } catch (e) {
    if (
      plan.kind === 'Continue' &&
      (isStoreError(e, 'Compacted') || isWatchCacheError(e, 'TooOldResourceVersion'))
    ) {
      throw await codec.expired(startKey);
    }
    if (isWatchCacheError(e, 'Corrupt'))
      throw corruptListError(
        e,
        def,
        featureEnabled(ctx.server.options.featureGates, 'AllowUnsafeMalformedObjectDeletion'),
      );
    throw e;
  }
  const metadata = await buildListMeta(codec, {
    revision: page.revision,
    nextKey: page.nextKey,
    remaining: page.remaining,
    filtered: !filter.empty,
  });
  const apiVersion = def.group === '' ? ctx.version : `${def.group}/${ctx.version}`;
  await writeObject(ctx, 200, { kind: def.listKind, apiVersion, metadata, items: page.items }, 'list', true);
}
