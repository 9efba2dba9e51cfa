import type { Gauge as PlainGauge } from '@orchard/authn';
import type { ApiServerOptions } from '../options.js';
import { versionInfo } from '../version.js';
import { registerPlainGauge } from './plain-gauges.js';
import { createServerMetrics, type ServerMetrics } from './server-metrics.js';

function isPlainGauge(v: unknown): v is PlainGauge {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as PlainGauge).name === 'string' &&
    typeof (v as PlainGauge).series === 'function'
  );
}

/**
 * The reload gauges of the configuration controllers among the token authenticators (the
 * `--authentication-config` controller carries `metrics.lastReloadTimestamp` and `metrics.reloads`).
 */
function reloadGauges(options: ApiServerOptions): PlainGauge[] {
  const out: PlainGauge[] = [];
  for (const a of options.authentication?.tokenAuthenticators ?? []) {
    const m = (a as { metrics?: unknown }).metrics;
    if (typeof m !== 'object' || m === null) continue;
    for (const g of Object.values(m)) if (isPlainGauge(g)) out.push(g);
  }
  return out;
}

/**
 * The server's metrics for `options` (undefined with `metrics: false`): the registry with the request
 * and storage metrics, and the reload gauges of the authentication configuration moved onto it.
 */
export function installMetrics(options: ApiServerOptions): ServerMetrics | undefined {
  if (!options.metrics) return undefined;
  const v = versionInfo();
  const metrics = createServerMetrics({
    currentVersion: `${v.major}.${v.minor}`,
    ...(options.showHiddenMetricsForVersion !== undefined
      ? { showHiddenMetricsForVersion: options.showHiddenMetricsForVersion }
      : {}),
    warn: (m) => options.logger.info(`warning: ${m}`),
  });
  for (const g of reloadGauges(options))
    registerPlainGauge(metrics, g, ['status'], { stabilityLevel: 'ALPHA' });
  return metrics;
}
