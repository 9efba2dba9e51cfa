import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditIdOf } from '../audit/record.js';
import { toApiError } from '../errors.js';
import { featureEnabled } from '../feature-gates.js';
import { auditFailedAuthentication, type ServerAudit } from '../filters/audit.js';
import type { FilterContext, FilterHandler } from '../filters/filter.js';
import { recordRequest } from '../metrics/request-metrics.js';
import { writeError } from '../response/write.js';
import type { ServerState } from '../state.js';
import { untransformableWithoutGate } from '../storage/corrupt-objects.js';
import { isClientGone } from './body.js';
import { requestPath, resolveRequestInfo } from './request-info.js';

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
    res.setHeader('Audit-ID', ctx.auditID);
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
    // The request's abort signal is created on first use (only watches need it): an
    // AbortController per request and its abort on every response close are measurable costs.
    let abort: AbortController | undefined;
    let url: URL | undefined;
    return {
      req,
      res,
      get url() {
        url ??= new URL(req.url ?? '/', 'http://localhost');
        return url;
      },
      searchParams,
      info,
      user: undefined,
      auditID,
      server: state,
      ready,
      get signal() {
        if (abort) return abort.signal;
        const controller = new AbortController();
        abort = controller;
        if (res.closed || state.closing.aborted) controller.abort();
        // Registered in a set the shutdown walks, not as a listener on the shared closing signal:
        // 10,000 watches would be 10,000 listeners on one emitter.
        openRequests.add(controller);
        res.once('close', () => {
          openRequests.delete(controller);
          controller.abort();
        });
        return controller.signal;
      },
    };
  }

  return (req, res) => {
    serve(req, res).catch((e) => {
      log.error('request handler failed', e);
      if (!res.headersSent) writeError({ res, flavor }, toApiError(e, undefined, log.error));
      else res.destroy();
    });
  };
}
