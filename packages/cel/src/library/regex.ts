/**
 * Regular expressions on RE2 semantics with linear-time matching (re2js): `matches` (replacing the
 * engine's JavaScript-RegExp implementation, see compile.ts), `find`, `findAll`. The cost,
 * charged before matching, is `ceil(0.1·len(input)) · ceil(0.25·len(regex))` as upstream, so a
 * match over a huge input halts on the budget instead of running.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { RegexStringLengthCostFactor, StringTraversalCostFactor } from '../limits.js';
import { chargeCost } from '../patches/cost-hook.js';
import { evalError } from './values.js';

const cache = new Map<string, RE2JS>();
const cacheMax = 256;

/** Compiles (and caches) an RE2 pattern; throws an evaluation error for invalid syntax. */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw evalError(`invalid regular expression '${pattern}': ${(e as Error).message}`, 'invalid_argument');
    }
    if (cache.size >= cacheMax) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, re);
  }
  return re;
}

function charge(ev: unknown, input: string, pattern: string): void {
  chargeCost(
    ev,
    Math.ceil(input.length * StringTraversalCostFactor) *
      Math.ceil(pattern.length * RegexStringLengthCostFactor),
  );
}

export function regexMatches(this: unknown, input: string, pattern: string): boolean {
  if (typeof input !== 'string' || typeof pattern !== 'string')
    throw evalError('no matching overload for matches', 'no_matching_overload');
  charge(this, input, pattern);
  return testWithoutCaptures(compileRegex(pattern), input);
}

/** The part of re2js's compiled program `testWithoutCaptures` reaches into. */
interface Re2Internals {
  onepass?: unknown;
}

/**
 * `re.test(input)` on re2js's lazy DFA. re2js 2.10 runs a one-pass pattern (most anchored
 * validation patterns are) on its one-pass engine even when no capture is asked for, which is
 * 4–5× slower than its DFA for a yes/no answer (RE2 proper uses the DFA there). Hiding the
 * one-pass program for the duration of the synchronous call routes the test to the DFA (or to
 * the backtracker/NFA when the DFA gives up): the same linear-time engines, the same answer.
 * When the internals differ (an re2js upgrade) this is plain `re.test(input)`.
 */
export function testWithoutCaptures(re: RE2JS, input: string): boolean {
  const prog = (re as unknown as { re2Input?: Re2Internals }).re2Input;
  const onepass = prog?.onepass;
  if (prog === undefined || onepass === undefined || onepass === null) return re.test(input);
  prog.onepass = null;
  try {
    return re.test(input);
  } finally {
    prog.onepass = onepass;
  }
}

function findAll(ev: unknown, input: string, pattern: string, limit: bigint): string[] {
  charge(ev, input, pattern);
  const out: string[] = [];
  if (limit === 0n) return out;
  const m = compileRegex(pattern).matcher(input);
  let from = 0;
  while (from <= input.length && m.find(from)) {
    out.push(m.group() ?? '');
    if (limit > 0n && BigInt(out.length) >= limit) break;
    const end = m.end();
    from = end === m.start() ? end + 1 : end;
  }
  return out;
}

export function registerRegex(env: Environment): void {
  env.registerFunction('matches(string, string): bool', regexMatches);
  env.registerFunction(
    'string.find(string): string',
    function (this: unknown, input: string, pattern: string) {
      return findAll(this, input, pattern, 1n)[0] ?? '';
    },
  );
  env.registerFunction(
    'string.findAll(string): list<string>',
    function (this: unknown, input: string, pattern: string) {
      return findAll(this, input, pattern, -1n);
    },
  );
  env.registerFunction(
    'string.findAll(string, int): list<string>',
    function (this: unknown, input: string, pattern: string, limit: bigint) {
      return findAll(this, input, pattern, limit);
    },
  );
}
