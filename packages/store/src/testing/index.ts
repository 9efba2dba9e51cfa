/** @orchard/store/testing — the conformance suite every Store backend runs (needs vitest). */
export { runStoreConformance } from './store-conformance.js';
