import { isDurationParseError, parseGoDuration } from '@orchard/meta/internal';

/**
 * Reads a duration flag or parameter as upstream does, with Go's `time.ParseDuration` (`2s`, `1m30s`,
 * `300ms`, `1.5h`, `0`); returns milliseconds (sub-millisecond parts rounded). Throws `invalid
 * duration "…"` with Go's reason for anything else, and for a negative duration (no flag or timeout
 * of the server takes one).
 */
export function parseDuration(text: string): number {
  let ns: bigint;
  try {
    ns = parseGoDuration(text);
  } catch (e) {
    if (!isDurationParseError(e)) throw e;
    throw new Error(`invalid duration "${text}" (examples: 2s, 5m, 1m30s, 300ms): ${e.message}`);
  }
  if (ns < 0n) throw new Error(`invalid duration "${text}": must not be negative`);
  return Math.round(Number(ns) / 1e6);
}
