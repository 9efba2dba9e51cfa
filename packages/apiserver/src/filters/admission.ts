import type { Filter } from './filter.js';

/**
 * Admission: the last filter before the router, for request-level admission decisions on an
 * authorized request (upstream admission plugins that need no object). Object-level mutation and
 * validation run inside the write path instead: `ApiServer.writePipeline` steps.
 */
export function admissionFilter(): Filter {
  // No behaviour yet: no request-level admission plugin exists; the request passes through.
  return (_ctx, next) => next();
}
