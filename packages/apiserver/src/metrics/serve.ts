import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../response/write.js';
import type { ServerMetrics } from './server-metrics.js';

/**
 * Serves `/metrics` in the Prometheus text format (GET and HEAD). Who may read it is decided before,
 * by the authorization filter: a non-resource URL (`system:monitoring` may `get` it by default).
 */
export async function serveMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: ServerMetrics,
): Promise<void> {
  const text = await metrics.registry.metrics();
  send(res, 200, metrics.registry.contentType, text, {}, req.method === 'HEAD');
}
