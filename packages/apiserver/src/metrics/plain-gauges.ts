/**
 * Gauges that lower packages keep as plain objects (`@orchard/authn`'s `Gauge`: the configuration
 * reload metrics of authentication and authorization) exported on the server's registry: each
 * scrape copies their series, so those packages need no metrics library.
 */
import type { Gauge as PlainGauge } from '@orchard/authn';
import { Gauge } from 'prom-client';
import { defineMetric, type ServerMetrics } from './server-metrics.js';
import type { MetricStability } from './stability.js';

/**
 * Exports `plain` (its name and help) on `metrics.registry` with `labelNames` (every label its series
 * carry) and `stability`. A series with a label outside `labelNames` is skipped, never thrown on.
 */
export function registerPlainGauge(
  metrics: ServerMetrics,
  plain: PlainGauge,
  labelNames: readonly string[],
  stability: MetricStability,
): void {
  const allowed = new Set(labelNames);
  const exported: Gauge<string> = defineMetric(
    Gauge<string>,
    {
      name: plain.name,
      help: plain.help,
      labelNames,
      ...stability,
      collect() {
        exported.reset();
        for (const s of plain.series()) {
          if (Object.keys(s.labels).every((k) => allowed.has(k))) exported.set(s.labels, s.value);
        }
      },
    },
    metrics.registry,
    metrics.stability,
  );
}
