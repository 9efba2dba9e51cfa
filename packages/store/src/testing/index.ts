/** @orchard/store/testing — the conformance suite every Store backend runs (needs vitest). */
export type { StoreConformanceOptions } from './store-conformance.js';
export { defaultStoreConformanceOptions, runStoreConformance } from './store-conformance.js';
