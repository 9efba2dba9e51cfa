import type { Filter } from './filter.js';

/**
 * Audit: the place where an audit event is recorded per request (stage RequestReceived before
 * `next()`, ResponseComplete after it), with the authenticated (or impersonated) user and the
 * resolved request info. Runs before authorization, so denied requests are audited too.
 */
export function auditFilter(): Filter {
  // No behaviour yet: no audit policy or backend exists; the request passes through.
  return (_ctx, next) => next();
}
