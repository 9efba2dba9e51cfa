/**
 * @orchard/pager — the resourceVersion read rules of spec doc 1 §4.5–4.6 (`planList`, `planGet`,
 * `planWatch`), continue tokens for chunked lists per §4.7 (opaque, HMAC-signed, expiring), and the
 * ListMeta of a page (`remainingItemCount` rules). The client-side pager lives in `@orchard/client`.
 */

export type {
  ContinueCodec,
  ContinueCodecOptions,
  ContinuePosition,
  DecodedContinue,
} from './continue-token.js';
export { createContinueCodec, defaultContinueCodecOptions } from './continue-token.js';
export type { PagerErrorCode } from './errors.js';
export { isPagerError, PagerError } from './errors.js';
export type { PageInfo } from './list-meta.js';
export { buildListMeta } from './list-meta.js';
export type { ListParams, ListPlan, ReadPlan, WatchParams, WatchPlan } from './plan.js';
export { planGet, planList, planWatch } from './plan.js';
export { formatResourceVersion, parseResourceVersion } from './resource-version.js';
