/** @orchard/codecs/testing — the round-trip suite every Codec runs (needs vitest). */
export type { CodecConformanceOptions } from './codec-conformance.js';
export { runCodecConformance } from './codec-conformance.js';
