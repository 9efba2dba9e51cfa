/**
 * json-patch-test-suite cases @orchard/patch does not pass, each with its reason. The suite test
 * fails if an entry here starts passing, so the list cannot go stale.
 */
export const knownFailures: Record<string, string> = {};
