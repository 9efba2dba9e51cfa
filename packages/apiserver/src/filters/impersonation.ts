import type { Filter } from './filter.js';

/**
 * Impersonation (spec doc 2, upstream `Impersonate-User`/`-Group`/`-Uid`/`-Extra-*` headers): the
 * place where an authorized caller's `ctx.user` is replaced by the user it acts as, after
 * authentication and before audit and authorization (which then see the impersonated user).
 */
export function impersonationFilter(): Filter {
  // No behaviour yet: impersonation headers are not read; the request goes on as its caller.
  return (_ctx, next) => next();
}
