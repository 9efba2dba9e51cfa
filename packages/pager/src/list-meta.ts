import type { ListMeta } from '@orchard/meta';
import type { ContinueCodec } from './continue-token.js';
import { formatResourceVersion } from './resource-version.js';

/** What a store read tells the pager about one page. */
export interface PageInfo {
  /** The snapshot revision the page was read at. */
  revision: number;
  /** Where the next page starts; undefined on the last page. */
  nextKey: string | undefined;
  /** Keys after this page at that snapshot. */
  remaining: number;
  /** The request had a label or field selector (the count of matching items is unknown). */
  filtered: boolean;
}

/**
 * The ListMeta of one page (spec doc 1 §2.3, §4.7): `resourceVersion` = the snapshot; `continue` =
 * a token for the next page (omitted on the last); `remainingItemCount` only when more pages follow
 * and no selector was given.
 */
export async function buildListMeta(codec: ContinueCodec, page: PageInfo): Promise<ListMeta> {
  const meta: ListMeta = { resourceVersion: formatResourceVersion(page.revision) };
  if (page.nextKey !== undefined) {
    meta.continue = await codec.encode({ revision: page.revision, startKey: page.nextKey });
    if (!page.filtered && page.remaining > 0) meta.remainingItemCount = page.remaining;
  }
  return meta;
}
