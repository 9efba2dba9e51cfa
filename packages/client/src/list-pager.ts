import type { ApiList, ApiObject } from '@orchard/meta';
import { ClientError, isGone } from './errors.js';
import type { Query, RestClient } from './rest-client.js';

/** Page size, resourceVersion rules, selectors, extra query and the 410 fallback of a paged list. */
export interface ListPagerOptions {
  /** Page size (`limit`); 0 = one unchunked request. Default 500, as kubectl and client-go. */
  pageSize?: number;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  labelSelector?: string;
  fieldSelector?: string;
  /** Extra query parameters. */
  query?: Query;
  /**
   * On 410: when a continue token expires mid-way, list again without `limit` (spec doc 1 §4.7
   * "restarts the listing or omits limit"), as client-go's pager does; when the requested version is
   * gone on the first page, list again with an empty version (§4.5). Default true; false rethrows.
   */
  fullListIfExpired?: boolean;
  signal?: AbortSignal;
}

/** All items of a paged list, the snapshot resourceVersion and the number of requests made. */
export interface ListResult<T extends ApiObject = ApiObject> {
  items: T[];
  /** The snapshot every page was read at (a watch from it misses nothing). */
  resourceVersion: string;
  /** Number of requests made. */
  pages: number;
}

/** Yields every page of a chunked list (spec doc 1 §4.7), following `metadata.continue`. */
export async function* listPages<T extends ApiObject = ApiObject>(
  client: RestClient,
  path: string,
  o: ListPagerOptions = {},
): AsyncGenerator<ApiList<T>> {
  const limit = o.pageSize ?? 500;
  let cont: string | undefined;
  const base: Query = {
    ...o.query,
    labelSelector: o.labelSelector,
    fieldSelector: o.fieldSelector,
  };
  for (;;) {
    const query: Query = cont
      ? { ...base, limit: limit || undefined, continue: cont }
      : {
          ...base,
          limit: limit || undefined,
          resourceVersion: o.resourceVersion,
          resourceVersionMatch: o.resourceVersionMatch,
        };
    const page = await client.json<ApiList<T>>({ path, query, ...(o.signal ? { signal: o.signal } : {}) });
    yield page;
    cont = page.metadata?.continue || undefined;
    if (!cont) return;
  }
}

/** Lists a whole collection page by page; the result is one consistent snapshot. */
export async function listAll<T extends ApiObject = ApiObject>(
  client: RestClient,
  path: string,
  o: ListPagerOptions = {},
): Promise<ListResult<T>> {
  const items: T[] = [];
  let resourceVersion = '';
  let pages = 0;
  try {
    for await (const page of listPages<T>(client, path, o)) {
      pages++;
      items.push(...(page.items ?? []));
      resourceVersion = page.metadata?.resourceVersion ?? '';
    }
    // Spec doc 1 §4.5 client duty: with Exact, verify the collection is at exactly that version.
    if (o.resourceVersionMatch === 'Exact' && o.resourceVersion && resourceVersion !== o.resourceVersion) {
      throw new ClientError(
        'Status',
        200,
        `list answered at resourceVersion ${resourceVersion}, not the Exact ${o.resourceVersion} requested`,
      );
    }
    return { items, resourceVersion, pages };
  } catch (e) {
    // §4.5 client duty: a version that is gone (410) on the first page: fall back to an empty version.
    if (
      pages === 0 &&
      isGone(e) &&
      o.resourceVersion &&
      o.resourceVersion !== '0' &&
      (o.fullListIfExpired ?? true)
    ) {
      return listAll<T>(client, path, { ...o, resourceVersion: undefined, resourceVersionMatch: undefined });
    }
    if (pages > 0 && isGone(e) && (o.fullListIfExpired ?? true)) {
      const full = await listAll<T>(client, path, {
        ...o,
        pageSize: 0,
        resourceVersion: undefined,
        resourceVersionMatch: undefined,
      });
      return { ...full, pages: pages + full.pages };
    }
    throw e;
  }
}
