import { Counter } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createServerMetrics, defineMetric } from './server-metrics.js';
import { metricVisibility, stabilityHelp, validateShowHiddenVersion } from './stability.js';

/** Spec doc 1 §9.3 rules 11a–11b and the Metrics paragraph, one row per rule. */
describe('metric stability', () => {
  const base = { currentVersion: '1.32', warn: () => {} };

  it.each([
    ['current', { stabilityLevel: 'STABLE' as const }, 'shown'],
    [
      'STABLE deprecated this release',
      { stabilityLevel: 'STABLE' as const, deprecatedVersion: '1.32' },
      'deprecated',
    ],
    [
      'STABLE deprecated 2 releases ago',
      { stabilityLevel: 'STABLE' as const, deprecatedVersion: '1.30' },
      'deprecated',
    ],
    [
      'STABLE deprecated 3 releases ago',
      { stabilityLevel: 'STABLE' as const, deprecatedVersion: '1.29' },
      'hidden',
    ],
    [
      'BETA deprecated last release',
      { stabilityLevel: 'BETA' as const, deprecatedVersion: '1.31' },
      'hidden',
    ],
    [
      'ALPHA deprecated this release',
      { stabilityLevel: 'ALPHA' as const, deprecatedVersion: '1.32.0' },
      'deprecated',
    ],
  ])('%s is %s', (_name, stability, expected) => {
    expect(metricVisibility(stability, base)).toBe(expected);
  });

  it('prefixes the help of a deprecated metric with upstream’s wording', () => {
    expect(stabilityHelp('Things.', { stabilityLevel: 'ALPHA', deprecatedVersion: '1.31' })).toBe(
      '[ALPHA] (Deprecated since 1.31.0) Things.',
    );
    expect(stabilityHelp('Things.', { stabilityLevel: 'STABLE' })).toBe('[STABLE] Things.');
  });

  it('warns at registration, hides after the window, and shows hidden ones on request', async () => {
    const warnings: string[] = [];
    const opts = { currentVersion: '1.32', warn: (m: string) => warnings.push(m) };
    const m = createServerMetrics(opts);
    const dep = defineMetric(
      Counter<string>,
      { name: 'old_total', help: 'Old.', labelNames: [], stabilityLevel: 'ALPHA', deprecatedVersion: '1.32' },
      m.registry,
      opts,
    );
    const hidden = defineMetric(
      Counter<string>,
      {
        name: 'older_total',
        help: 'Older.',
        labelNames: [],
        stabilityLevel: 'ALPHA',
        deprecatedVersion: '1.31',
      },
      m.registry,
      opts,
    );
    dep.inc();
    hidden.inc();
    const text = await m.registry.metrics();
    expect(text).toContain('# HELP old_total [ALPHA] (Deprecated since 1.32.0) Old.');
    expect(text).toContain('old_total 1');
    expect(text).not.toContain('older_total');
    expect(warnings).toEqual(['metric old_total is deprecated since 1.32.0']);

    const shown = { ...opts, showHiddenMetricsForVersion: '1.31' };
    const m2 = createServerMetrics(shown);
    defineMetric(
      Counter<string>,
      {
        name: 'older_total',
        help: 'Older.',
        labelNames: [],
        stabilityLevel: 'ALPHA',
        deprecatedVersion: '1.31',
      },
      m2.registry,
      shown,
    );
    expect(await m2.registry.metrics()).toContain(
      '# HELP older_total [ALPHA] (Deprecated since 1.31.0) Older.',
    );
    expect(warnings.at(-1)).toMatch(/older_total is hidden .*--show-hidden-metrics-for-version=1\.31/);
  });

  it('accepts only the previous minor release for --show-hidden-metrics-for-version', () => {
    expect(validateShowHiddenVersion('1.31', '1.32')).toBeUndefined();
    expect(validateShowHiddenVersion('1.30', '1.32')).toMatch(/only the previous minor version/);
    expect(validateShowHiddenVersion('banana', '1.32')).toMatch(/not a release/);
  });
});
