/**
 * Go's `time.Duration` text, as AuthorizationConfiguration's durations are written; the formatter
 * (`formatGoDuration`, as upstream's field errors print them) is beside the parser in meta.
 */
import { isDurationParseError, parseGoDuration } from '@orchard/meta/internal';

const nsPerMs = 1_000_000n;

/** A Go duration string as milliseconds, or the parse error's message. */
export function parseDurationMs(text: string): { ms: number; ns: bigint } | { error: string } {
  try {
    const ns = parseGoDuration(text);
    return { ms: Number(ns / nsPerMs), ns };
  } catch (e) {
    if (isDurationParseError(e)) return { error: e.message };
    throw e;
  }
}
