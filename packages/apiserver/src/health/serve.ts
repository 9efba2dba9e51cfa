import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '@orchard/meta';
import { send } from '../response/write.js';
import type { HealthChecks, HealthEndpoint } from './health.js';

const healthPath = /^\/(livez|readyz|healthz)(?:\/(.+))?$/;

/**
 * Serves `/livez`, `/readyz`, `/healthz` and their per-check paths (GET and HEAD; other methods
 * are 405). `path` has no trailing slash. Returns false when `path` is not a health path.
 */
export async function serveHealth(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
  health: HealthChecks,
): Promise<boolean> {
  const m = healthPath.exec(path);
  if (!m) return false;
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head)
    throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const r = await health.evaluate(m[1] as HealthEndpoint, m[2], url.searchParams);
  send(res, r.code, 'text/plain; charset=utf-8', r.body, {}, head);
  return true;
}
