import { hasBrand } from '@orchard/meta/internal';
/**
 * What the pager rejects with. The server maps each code to a Status; the pager knows nothing of HTTP.
 *
 * - `InvalidRequest`: an "Invalid" cell of the §4.5 list table (or an invalid watch combination);
 *   upstream answers 400 (422 for the ListOptions validation cases; the issue fixes 400).
 * - `InvalidResourceVersion`: a resourceVersion that is not one this server issued (400).
 * - `InvalidContinue`: a forged, corrupted or foreign continue token (400).
 * - `Expired`: the token outlived its lifetime, or its snapshot is gone (410 Expired). `continue`
 *   then holds a fresh token that continues from the same key at the latest revision (inconsistent).
 */
export type PagerErrorCode = 'InvalidRequest' | 'InvalidResourceVersion' | 'InvalidContinue' | 'Expired';

/**
 * What the pager rejects with: a code the server maps to a Status (a bad parameter names its `field`;
 * an expired token may carry a `continue`).
 */
export class PagerError extends Error {
  readonly orchardPagerError = true as const;
  readonly code: PagerErrorCode;
  /** For `InvalidRequest`: the offending query parameter. */
  readonly field: string | undefined;
  /** For `Expired`: a token that continues the list inconsistently (upstream's `metadata.continue`). */
  readonly continue: string | undefined;

  constructor(code: PagerErrorCode, message: string, info: { field?: string; continue?: string } = {}) {
    super(message);
    this.name = 'PagerError';
    this.code = code;
    this.field = info.field;
    this.continue = info.continue;
  }
}

/** Recognises a PagerError (optionally of one code) without relying on `instanceof` across copies. */
export function isPagerError(e: unknown, code?: PagerErrorCode): e is PagerError {
  return hasBrand(e, 'orchardPagerError') && (code === undefined || (e as PagerError).code === code);
}

/** Upstream's message for an expired continue token when a fresh (inconsistent) token is offered. */
export const inconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Upstream's message for an expired continue token when no fresh token can be offered. */
export const continueExpiredMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
