import { nodeRestrictionOnDelete } from '../node/node-restriction.js';
import type { Filter } from './filter.js';

/** The request-level admission plugins the filter runs. */
export interface AdmissionFilterOptions {
  /** NodeRestriction for deletes (the write pipeline's `node-restriction` step covers writes). */
  readonly nodeRestriction: boolean;
}

/**
 * Admission: the last filter before the router, for request-level admission decisions on an
 * authorized request (upstream admission plugins that need no request body). Object-level mutation
 * and validation run inside the write path instead: `ApiServer.writePipeline` steps. Deletes do not
 * run the pipeline, so NodeRestriction's delete rules run here.
 */
export function admissionFilter(options: AdmissionFilterOptions = { nodeRestriction: false }): Filter {
  if (!options.nodeRestriction) return (_ctx, next) => next();
  return async (ctx, next) => {
    const { info, user } = ctx;
    if (user && info.isResourceRequest && info.verb === 'delete' && info.subresource === '')
      await nodeRestrictionOnDelete(ctx.server, user, {
        group: info.apiGroup,
        resource: info.resource,
        namespace: info.namespace,
        name: info.name,
      });
    return next();
  };
}
