/**
 * The cel-spec core conformance suite, run by CI. Fails when the pass count drops below the
 * committed baseline, or when a test fails that is not in known-failures.json (with its reason),
 * or when a listed failure starts passing (so the list stays exact).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runConformance, summarize } from './runner.js';

const known = JSON.parse(readFileSync(new URL('./known-failures.json', import.meta.url), 'utf8')) as {
  failures: Record<string, string>;
};

/** Pass count of the committed baseline (README: "Conformance"). */
const BASELINE_PASS = 1208;

describe('cel-spec core conformance', () => {
  const results = runConformance();
  const summary = summarize(results);
  const pass = summary.reduce((n, s) => n + s.pass, 0);
  const fail = summary.reduce((n, s) => n + s.fail, 0);

  it('passes at least the baseline and at least 95% of the core tests without protobuf messages', () => {
    expect(pass).toBeGreaterThanOrEqual(BASELINE_PASS);
    expect(pass / (pass + fail)).toBeGreaterThanOrEqual(0.95);
  });

  it('fails only tests listed in known-failures.json, each with a reason', () => {
    const unexpected = results
      .filter((r) => r.outcome === 'fail' && !(r.id in known.failures))
      .map((r) => `${r.id}: ${r.detail}`);
    expect(unexpected).toEqual([]);
    for (const reason of Object.values(known.failures)) expect(reason.length).toBeGreaterThan(10);
  });

  it('lists no failure that now passes', () => {
    const failing = new Set(results.filter((r) => r.outcome === 'fail').map((r) => r.id));
    const stale = Object.keys(known.failures).filter((id) => !failing.has(id));
    expect(stale).toEqual([]);
  });
});
