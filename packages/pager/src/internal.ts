/**
 * @orchard/pager/internal — upstream's exact wording of the continue-token errors, for the server's
 * tests. Not covered by semver; import `@orchard/pager` instead.
 */

export { continueExpiredMessage, inconsistentContinueMessage } from './errors.js';
