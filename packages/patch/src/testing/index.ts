/** Test fixtures of @orchard/patch (Node only). */
export type { JsonPatchSuiteCase } from './json-patch-suite.js';
export { jsonPatchSuiteCases } from './json-patch-suite.js';
