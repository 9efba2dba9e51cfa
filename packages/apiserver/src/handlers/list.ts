import { errors, type StoredObject } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { compileFilter, type ObjectFilter } from '../request/selectors.js';
import { writeObject } from '../response/write.js';
import { keyParts, parseResourceVersion } from './common.js';

/** A page of a list: the items, the snapshot revision, the next start key, and how many remain. */
export interface ListPage {
  readonly items: StoredObject[];
  readonly revision: number;
  readonly continueKey: string | undefined;
  readonly remaining: number | undefined;
}

/**
 * The continue token of this server: base64url of `{v, rv, start}`. Opaque to clients; the pager
 * package replaces it with its signed, expiring tokens.
 */
export function encodeContinue(revision: number, startKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.orchard/v1', rv: revision, start: startKey })).toString(
    'base64url',
  );
}

export function decodeContinue(token: string): { revision: number; startKey: string } {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: unknown;
      rv?: unknown;
      start?: unknown;
    };
    if (t.v === 'meta.orchard/v1' && typeof t.rv === 'number' && typeof t.start === 'string')
      return { revision: t.rv, startKey: t.start };
  } catch {
    // fall through
  }
  throw errors.badRequest('continue key is not valid: the token is malformed');
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

/** list (spec doc 1 §4.5, §4.7): resourceVersion semantics, limit/continue, selectors. */
export async function handleList(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const q = ctx.query;
  const filter = compileFilter(def, q.labelSelector, q.fieldSelector);
  const prefix = ctx.server.objects.prefix(keyParts(ctx, def));
  const rv = q.resourceVersion;
  let atRevision: number | undefined;
  let startKey: string | undefined;
  if (q.continue !== undefined) {
    if (rv !== undefined && rv !== '' && rv !== '0') {
      throw errors.badRequest('specifying resource version is not allowed when using continue');
    }
    const c = decodeContinue(q.continue);
    atRevision = c.revision;
    startKey = c.startKey;
  } else if (rv !== undefined && rv !== '' && rv !== '0') {
    const wanted = parseResourceVersion(rv);
    const exact =
      q.resourceVersionMatch === 'Exact' || (q.resourceVersionMatch === undefined && (q.limit ?? 0) > 0);
    if (exact) atRevision = wanted;
    else {
      const current = await ctx.server.store.currentRevision();
      if (wanted > current) throw errors.tooLargeResourceVersion(rv, String(current));
    }
  } else if (q.resourceVersionMatch === 'Exact' || (q.resourceVersionMatch && rv === undefined)) {
    throw errors.badRequest(`resourceVersionMatch is forbidden unless resourceVersion is provided`);
  }
  const page = await readPage(ctx, prefix, filter, {
    ...(atRevision === undefined ? {} : { atRevision }),
    ...(q.limit ? { limit: q.limit } : {}),
    ...(startKey === undefined ? {} : { startKey }),
  });
  const metadata: Record<string, unknown> = { resourceVersion: String(page.revision) };
  if (page.continueKey !== undefined) {
    metadata.continue = encodeContinue(page.revision, page.continueKey);
    if (page.remaining !== undefined) metadata.remainingItemCount = page.remaining;
  }
  const apiVersion = def.group === '' ? ctx.version : `${def.group}/${ctx.version}`;
  writeObject(ctx, 200, { kind: def.listKind, apiVersion, metadata, items: page.items }, 'list');
}
