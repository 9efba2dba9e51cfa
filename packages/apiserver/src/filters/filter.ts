import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '@orchard/meta';
import type { ResourceDefinition } from '../registry/resource.js';
import type { RequestInfo } from '../request/request-info.js';
import type { ServerState } from '../state.js';

/**
 * One request as the filter chain sees it, before routing: the raw request, what it addresses
 * (resolved from method, path and query alone) and who sends it. Filters read it and may fill in
 * `user`; the router builds the handlers' `RequestContext` from it.
 */
export interface FilterContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request URL, parsed on first use (most requests only need `searchParams`). */
  readonly url: URL;
  /** The query parameters of the request. */
  readonly searchParams: URLSearchParams;
  /** What the request addresses (upstream `RequestInfo`): authorization, audit and routing read this. */
  readonly info: RequestInfo;
  /**
   * The caller, set by the authentication filter; undefined only for an unauthenticated request to
   * a public path (`/version`, `/livez`, `/readyz`, `/healthz`).
   */
  user: UserInfo | undefined;
  readonly server: ServerState;
  /** Resolves when start-up work (default namespaces, CRD controller) is done. */
  readonly ready: Promise<void>;
  /** The resource type, once the router resolved it: error messages name it. */
  def?: ResourceDefinition;
  /** The request's audit ID: its `Audit-ID` header, or a new UUID; returned as the `Audit-ID` response header. */
  readonly auditID: string;
  /** Aborted when the client goes away or the server shuts down (created on first use). */
  readonly signal: AbortSignal;
}

/** Runs the rest of the chain (the next filter, finally the router). */
export type Next = () => Promise<void>;

/**
 * A step every request passes through before it is routed (upstream's handler-chain filters:
 * authentication, impersonation, audit, authorization, admission, request limits …). A filter
 * either answers itself (throw an `ApiError`: the server writes it as a Status) or calls `next()`
 * once and returns (or awaits) its promise. A filter with nothing to do returns `next()` directly,
 * without `async`, so the chain costs one call per filter.
 */
export type Filter = (ctx: FilterContext, next: Next) => Promise<void>;

/** The end of the chain: the router. */
export type FilterHandler = (ctx: FilterContext) => Promise<void>;

/** Composes filters (outermost first) around a handler, once, at server start. */
export function composeFilters(filters: readonly Filter[], handler: FilterHandler): FilterHandler {
  let chain = handler;
  for (let i = filters.length - 1; i >= 0; i--) {
    const filter = filters[i] as Filter;
    const inner = chain;
    chain = (ctx) => filter(ctx, () => inner(ctx));
  }
  return chain;
}
