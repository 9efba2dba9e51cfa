/**
 * Settings shared by the fuzz suites: one seed per run, printed so a failure can be replayed
 * (`ORCHARD_FUZZ_SEED=<seed> pnpm test fuzz`), and bounded run counts so CI stays fast
 * (`ORCHARD_FUZZ_RUNS` scales them for a longer local session).
 */
const seedFromEnv = Number(process.env.ORCHARD_FUZZ_SEED);
export const fuzzSeed = Number.isInteger(seedFromEnv)
  ? seedFromEnv
  : (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
const scale = Number(process.env.ORCHARD_FUZZ_RUNS ?? '1') || 1;

const counts = new Map<string, number>();

/** fast-check parameters for one property: the run's seed and `numRuns` scaled by `ORCHARD_FUZZ_RUNS`. */
export function fuzzParams(name: string, numRuns: number): { seed: number; numRuns: number } {
  const runs = Math.max(1, Math.round(numRuns * scale));
  counts.set(name, runs);
  return { seed: fuzzSeed, numRuns: runs };
}

/** One line per suite for the CI log: the seed and how many inputs each property tried. */
export function reportFuzzRuns(suite: string): void {
  const parts = [...counts].map(([n, c]) => `${n}=${c}`).join(' ');
  console.log(`fuzz ${suite}: seed=${fuzzSeed} runs: ${parts}`);
  counts.clear();
}

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** Throws when anything was written onto Object.prototype. */
export function assertPrototypeClean(): void {
  const now = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  if (now !== prototypeNames) throw new Error(`Object.prototype changed: ${now}`);
}

/** JSON keys a fuzzer should favour: the prototype-reaching names, directives, and real field names. */
export const hostileKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '$patch',
  '$retainKeys',
  '$setElementOrder/containers',
  '$deleteFromPrimitiveList/finalizers',
  'metadata',
  'name',
  'labels',
  'data',
  'spec',
  'containers',
  'finalizers',
  'kind',
  'apiVersion',
];
