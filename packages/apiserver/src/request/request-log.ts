/**
 * Upstream's httplog at `-v 2`: one line per finished request with its verb, URI, latency, user
 * agent, audit ID, source address and status. Installed only when a sink is configured, so a server
 * without it pays nothing per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FilterContext } from '../filters/filter.js';
import { cleanVerb } from '../metrics/request-metrics.js';

/** One request-log record, with upstream httplog's field names. */
export interface RequestLogEntry {
  /** Upstream's reported verb: LIST, WATCH, GET, POST, PUT, PATCH, APPLY, DELETE… */
  readonly verb: string;
  /** The request target as sent (path and query). */
  readonly URI: string;
  /** How long the request ran, e.g. `1.234ms` (a watch: until it ended). */
  readonly latency: string;
  readonly userAgent: string;
  readonly 'audit-ID': string;
  /** The client's address and port. */
  readonly srcIP: string;
  /** The status code sent (0 when the client went away first). */
  readonly resp: number;
}

/** Where request-log records go (the CLI: its logger at `-v 2`). */
export type RequestLog = (entry: RequestLogEntry) => void;

function latency(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
}

/** Writes `ctx`'s record to `log` when its response closes. */
export function logRequestOnClose(
  log: RequestLog,
  ctx: Pick<FilterContext, 'info' | 'req' | 'auditID'>,
  res: ServerResponse,
): void {
  const startedAt = performance.now();
  const req: IncomingMessage = ctx.req;
  res.once('close', () => {
    const addr = req.socket.remoteAddress ?? '';
    log({
      verb: cleanVerb(ctx),
      URI: req.url ?? '/',
      latency: latency(performance.now() - startedAt),
      userAgent: req.headers['user-agent'] ?? '',
      'audit-ID': ctx.auditID,
      srcIP: addr.includes(':')
        ? `[${addr}]:${req.socket.remotePort ?? 0}`
        : `${addr}:${req.socket.remotePort ?? 0}`,
      resp: res.headersSent ? res.statusCode : 0,
    });
  });
}
