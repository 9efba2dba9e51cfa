import type { ServerResponse } from 'node:http';
import { ApiError } from '@orchard/meta';
import { parseDuration } from '../duration.js';
import type { Filter, FilterContext } from './filter.js';

/**
 * Upstream's timeout filter for non-long-running requests (`--request-timeout`, default 60 s): a
 * request still running when its time is up is answered 504 Timeout. The request's own `?timeout=`
 * (a Go duration) may only shorten it; an unparsable one is ignored, as upstream logs and ignores it.
 * The handler is not cancelled (neither is upstream's): a write already under way still completes.
 */
export function requestTimeoutMs(queryTimeout: string | null, maxMs: number): number {
  if (queryTimeout === null || queryTimeout === '') return maxMs;
  try {
    const ms = parseDuration(queryTimeout);
    return ms > 0 ? Math.min(ms, maxMs) : maxMs;
  } catch {
    return maxMs;
  }
}

/**
 * Runs `work`; rejects with the 504 when it has not settled within `ms`. `work`'s own later failure
 * is ignored (the response went out already). One promise and one timer a request. `mapError`
 * turns the rejection (the 504, or `work`'s own) into the one to reject with.
 */
export function withTimeout(
  work: Promise<void>,
  ms: number,
  mapError: (e: unknown) => unknown = (e) => e,
): Promise<void> {
  if (!(ms > 0)) return work;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(mapError(requestTimedOut())), ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(mapError(e));
      },
    );
  });
}

export function requestTimedOut(): ApiError {
  return new ApiError(
    504,
    'Timeout',
    'Timeout: request did not complete within requested timeout - context deadline exceeded',
    {},
  );
}

export function isRequestTimeout(e: unknown): boolean {
  return e instanceof ApiError && e.code === 504 && e.reason === 'Timeout';
}

/** The 408 for a client that did not send its whole body within the request timeout; the connection is closed after it. */
export function requestBodyTimedOut(res: ServerResponse): ApiError {
  if (!res.headersSent) {
    res.shouldKeepAlive = false;
    res.setHeader('Connection', 'close');
  }
  return new ApiError(408, 'Timeout', 'the client did not send the request body in time', {});
}

/**
 * The timeout filter: the rest of the chain must settle within the request's timeout (watches are
 * long-running and have none); a timeout while the client is still sending its body is its fault
 * (408, connection closed), not the server's (504).
 */
export function requestTimeoutFilter(maxMs: number): Filter {
  return (ctx, next) => {
    const { info } = ctx;
    const watch = info.isResourceRequest && info.verb === 'watch';
    const ms = watch ? 0 : requestTimeoutMs(ctx.searchParams.get('timeout'), maxMs);
    let work: Promise<void>;
    try {
      work = next();
    } catch (e) {
      return Promise.reject(blame(ctx, e));
    }
    // One promise and one timer a request, no `async` wrapper; a watch (no timeout) adds nothing.
    if (ms > 0) return withTimeout(work, ms, (e) => blame(ctx, e));
    return watch ? work : work.catch((e: unknown) => Promise.reject(blame(ctx, e)));
  };
}

/** A timeout while the client is still sending its body is its fault (408), not the server's (504). */
function blame(ctx: FilterContext, e: unknown): unknown {
  return isRequestTimeout(e) && !ctx.req.complete ? requestBodyTimedOut(ctx.res) : e;
}
