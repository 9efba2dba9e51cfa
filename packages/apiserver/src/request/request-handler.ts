import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '@orchard/meta';
import { auditIdOf } from '../audit/record.js';
import { toApiError } from '../errors.js';
import { featureEnabled } from '../feature-gates.js';
import { auditFailedAuthentication, type ServerAudit } from '../filters/audit.js';
import type { FilterContext, FilterHandler } from '../filters/filter.js';
import { recordRequest } from '../metrics/request-metrics.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { AuditedResponse } from '../response/audited-response.js';
import { writeError } from '../response/write.js';
import type { ServerState } from '../state.js';
import { untransformableWithoutGate } from '../storage/corrupt-objects.js';
import { isClientGone } from './body.js';
import { requestPath, resolveRequestInfo } from './request-info.js';
import { logRequestOnClose } from './request-log.js';

/** What the request handler of one server needs beside its state. */
export interface RequestHandlerInput {
  readonly state: ServerState;
  /** The filter chain, ending in the router. */
  readonly chain: FilterHandler;
  readonly audit: ServerAudit | undefined;
  /** Resolves when start-up work is done (filters and handlers may wait for it). */
  readonly ready: Promise<void>;
}

/**
 * The Node request handler: resolves what a request addresses, runs the filter chain and turns any
 * error into a Status (the one place besides the router's own answers that writes one). Requests
 * that asked for an abort signal (watches) are aborted when `state.closing` aborts.
 */
export function createRequestHandler(
  input: RequestHandlerInput,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { state, chain, audit, ready } = input;
  const { flavor, log, metrics, options } = state;
  const { requestLog } = options;
  /** The abort controllers of requests that asked for a signal (watches); aborted on close(). */
  const openRequests = new Set<AbortController>();
  state.closing.addEventListener('abort', () => {
    for (const c of openRequests) c.abort();
    openRequests.clear();
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    // No `new URL` per request: the query is parsed from the target, the URL only on first use.
    const q = target.indexOf('?');
    const searchParams = new URLSearchParams(q === -1 ? '' : target.slice(q + 1).split('#', 1)[0]);
    // The path as sent, dot segments kept: authentication, resolution and routing read the same one.
    const info = resolveRequestInfo(req.method ?? 'GET', requestPath(target), searchParams);
    const ctx = newFilterContext(req, res, searchParams, info, auditIdOf(req));
    // Set as the first header: held by the server's response class until the headers are written.
    if (res instanceof AuditedResponse) res.setAuditId(ctx.auditID);
    else res.setHeader('Audit-ID', ctx.auditID);
    if (requestLog) logRequestOnClose(requestLog, ctx, res);
    const startedAt = metrics ? performance.now() : 0;
    try {
      await chain(ctx);
      if (metrics) recordRequest(metrics, ctx, res.statusCode, startedAt);
    } catch (e) {
      // A client that went away gets no answer, and is no server error.
      if (isClientGone(e) || (res.destroyed && !res.headersSent)) return;
      const target = ctx.def
        ? { group: ctx.def.group, resource: ctx.def.resource, name: info.name }
        : undefined;
      const err =
        (featureEnabled(options.featureGates, 'AllowUnsafeMalformedObjectDeletion')
          ? undefined
          : untransformableWithoutGate(e)) ?? toApiError(e, target, log.error);
      if (res.headersSent) {
        res.end();
        return;
      }
      writeError({ res, accept: req.headers.accept, flavor, offers: state.offers }, err);
      if (metrics) recordRequest(metrics, ctx, err.code, startedAt);
      auditFailedAuthentication(audit, ctx, err);
    }
  }

  function newFilterContext(
    req: IncomingMessage,
    res: ServerResponse,
    searchParams: URLSearchParams,
    info: FilterContext['info'],
    auditID: string,
  ): FilterContext {
    return new RequestFilterContext(req, res, searchParams, info, auditID, state, ready, openRequests);
  }

  return (req, res) => {
    serve(req, res).catch((e) => {
      log.error('request handler failed', e);
      if (!res.headersSent) writeError({ res, flavor }, toApiError(e, undefined, log.error));
      else res.destroy();
    });
  };
}

/**
 * The filter context of one request. A class, so that its lazy `url` and `signal` live on the
 * prototype: an object literal with accessors cost two closures and a slow object per request.
 */
class RequestFilterContext implements FilterContext {
  user: UserInfo | undefined = undefined;
  def?: ResourceDefinition;
  private lazyUrl: URL | undefined = undefined;
  private abort: AbortController | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly searchParams: URLSearchParams,
    readonly info: FilterContext['info'],
    readonly auditID: string,
    readonly server: ServerState,
    readonly ready: Promise<void>,
    private readonly openRequests: Set<AbortController>,
  ) {}

  /** The request URL, parsed on first use (most requests only need `searchParams`). */
  get url(): URL {
    this.lazyUrl ??= new URL(this.req.url ?? '/', 'http://localhost');
    return this.lazyUrl;
  }

  /**
   * The request's abort signal, created on first use (only watches need it): an AbortController
   * per request and its abort on every response close are measurable costs.
   */
  get signal(): AbortSignal {
    if (this.abort) return this.abort.signal;
    const controller = new AbortController();
    this.abort = controller;
    if (this.res.closed || this.server.closing.aborted) controller.abort();
    // Registered in a set the shutdown walks, not as a listener on the shared closing signal:
    // 10,000 watches would be 10,000 listeners on one emitter.
    const open = this.openRequests;
    open.add(controller);
    this.res.once('close', () => {
      open.delete(controller);
      controller.abort();
    });
    return controller.signal;
  }
}
