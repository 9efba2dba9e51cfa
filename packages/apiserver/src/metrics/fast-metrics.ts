/**
 * A counter and a histogram for the per-request path, registered on a prom-client `Registry` like
 * prom-client's own, but updated by label values in a fixed order (one string key, one map lookup),
 * because prom-client validates and hashes a label object on every update: about 8 µs a request on
 * this machine, against the < 5% budget of a GET. The exposition (help, type, cumulative `_bucket`
 * series with `le`, `_sum`, `_count`) is produced by prom-client's registry from `get()`.
 */
import type { Registry } from 'prom-client';

/** The configuration both kinds take (the shape of prom-client's, so `defineMetric` builds either). */
export interface FastMetricConfig<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  readonly registers: Registry[];
  readonly buckets?: number[];
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

interface Exposed {
  name: string;
  help: string;
  type: string;
  values: MetricValue[];
  aggregator: 'sum';
}

function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((n, i) => {
    out[n] = values[i] ?? '';
  });
  return out;
}

abstract class FastMetric<L extends string> {
  readonly name: string;
  help: string;
  readonly labelNames: readonly L[];
  readonly aggregator = 'sum' as const;
  abstract readonly type: string;

  constructor(config: FastMetricConfig<L>) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    for (const r of config.registers) r.registerMetric(this as never);
  }

  protected check(values: readonly string[]): void {
    if (values.length !== this.labelNames.length)
      throw new Error(`${this.name}: ${values.length} label values for ${this.labelNames.length} labels`);
  }

  abstract get(): Promise<Exposed>;
}

/** A counter whose series are addressed by label values in `labelNames` order. */
export class FastCounter<L extends string> extends FastMetric<L> {
  readonly type = 'counter';
  private readonly series = new Map<string, { values: readonly string[]; value: number }>();

  /** Adds `by` (default 1) to the series of `values`; `key` is `values.join('\0')` when the caller has it. */
  inc(values: readonly string[], by = 1, key = values.join('\0')): void {
    const s = this.series.get(key);
    if (s) s.value += by;
    else {
      this.check(values);
      this.series.set(key, { values: [...values], value: by });
    }
  }

  /** The value of one series (tests). */
  value(values: readonly string[]): number | undefined {
    return this.series.get(values.join('\0'))?.value;
  }

  async get(): Promise<Exposed> {
    const values: MetricValue[] = [];
    for (const s of this.series.values())
      values.push({ value: s.value, labels: labelsOf(this.labelNames, s.values) });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

/** A histogram with fixed upper bounds (`buckets`, ascending; `+Inf` implied). */
export class FastHistogram<L extends string> extends FastMetric<L> {
  readonly type = 'histogram';
  private readonly bounds: number[];
  private readonly series = new Map<
    string,
    { values: readonly string[]; counts: Float64Array; sum: number; count: number }
  >();

  constructor(config: FastMetricConfig<L>) {
    super(config);
    this.bounds = [...(config.buckets ?? [])].sort((a, b) => a - b);
  }

  /** Records `v` in the series of `values`. */
  observe(values: readonly string[], v: number, key = values.join('\0')): void {
    let s = this.series.get(key);
    if (!s) {
      this.check(values);
      s = { values: [...values], counts: new Float64Array(this.bounds.length), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > (b[i] as number)) i++;
    if (i < b.length) (s.counts[i] as number)++;
    s.sum += v;
    s.count++;
  }

  /** The observation count of one series (tests). */
  count(values: readonly string[]): number | undefined {
    return this.series.get(values.join('\0'))?.count;
  }

  async get(): Promise<Exposed> {
    const out: MetricValue[] = [];
    for (const s of this.series.values()) {
      const labels = labelsOf(this.labelNames, s.values);
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += s.counts[i] as number;
        out.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le }, value: acc });
      });
      out.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: s.count });
      out.push({ metricName: `${this.name}_sum`, labels, value: s.sum });
      out.push({ metricName: `${this.name}_count`, labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values: out, aggregator: 'sum' };
  }
}
