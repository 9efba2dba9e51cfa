import type { Filter } from './filter.js';
import { createMaxInFlight } from './max-in-flight.js';
import { createWatchLimit } from './watch-limit.js';

/** Health checks are never shed: a load balancer must see a busy server as alive. */
const healthPaths = /^\/(livez|readyz|healthz)(\/.*)?$/;
const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Concurrency limits, after authentication (the user decides exemptions): a watch counts against
 * its user's open watches (`maxWatchesPerUser`), any other request but a health check takes a
 * max-in-flight slot (`maxRequestsInflight` / `maxMutatingRequestsInflight`) until it is answered.
 */
export function requestLimitsFilter(limits: {
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  readonly maxWatchesPerUser: number;
}): Filter {
  const inFlight = createMaxInFlight(limits.maxRequestsInflight, limits.maxMutatingRequestsInflight);
  const watchLimit = createWatchLimit(limits.maxWatchesPerUser);
  return (ctx, next) => {
    const { info } = ctx;
    let leave: (() => void) | undefined;
    if (info.isResourceRequest && info.verb === 'watch') leave = watchLimit.open(ctx.user);
    else if (!healthPaths.test(info.path))
      leave = inFlight.enter(mutatingMethods.has(ctx.req.method ?? 'GET'), ctx.user);
    if (!leave) return next();
    const release = leave;
    let served: Promise<void>;
    try {
      served = next();
    } catch (e) {
      release();
      throw e;
    }
    return served.then(release, (e: unknown) => {
      release();
      throw e;
    });
  };
}
