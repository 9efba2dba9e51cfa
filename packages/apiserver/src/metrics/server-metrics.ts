/**
 * The metrics of one server (`/metrics`, Prometheus text format), kept in a registry of its own so
 * that two servers in one process never share a series. prom-client's module-global default
 * registry is never used.
 */
import { Gauge, Registry } from 'prom-client';
import { FastCounter, FastHistogram } from './fast-metrics.js';
import { type MetricStability, type MetricStabilityOptions, resolveMetricStability } from './stability.js';

/** Upstream's buckets of `apiserver_request_duration_seconds` and `etcd_request_duration_seconds`. */
export const requestDurationBuckets: readonly number[] = Object.freeze([
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
]);

/** Labels of `apiserver_request_total` (the duration histogram has all but `code`). */
export const requestLabelNames = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
  'code',
] as const;

/** One label value per name of `requestLabelNames`. */
export type RequestLabels = Record<(typeof requestLabelNames)[number], string>;

/** The metrics the server updates, each registered on the server's own registry. */
export interface ServerMetrics {
  /** The server's registry: what `/metrics` prints. */
  readonly registry: Registry;
  /** `apiserver_request_total` (STABLE). */
  readonly requestTotal: FastCounter<(typeof requestLabelNames)[number]>;
  /** `apiserver_request_duration_seconds` (STABLE); not observed for watches (long-running). */
  readonly requestDuration: FastHistogram<Exclude<(typeof requestLabelNames)[number], 'code'>>;
  /** `etcd_request_duration_seconds{operation,type}` (ALPHA): latency of each storage call, whatever the backend. */
  readonly storageDuration: FastHistogram<'operation' | 'type'>;
  /** `apiserver_requested_deprecated_apis` (STABLE), set by requests to deprecated versions. */
  readonly requestedDeprecatedApis: Gauge<
    'group' | 'version' | 'resource' | 'subresource' | 'removed_release'
  >;
  /** What the stability rules are decided against (current release, shown hidden version). */
  readonly stability: MetricStabilityOptions;
}

/** A metric definition of the server: name, help, stability and the prom-client configuration. */
export interface MetricDefinition<L extends string> extends MetricStability {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
}

/**
 * Makes a metric of class `Kind` from `def`, registered on `registry` when its stability allows (a
 * hidden metric is created but not registered: code updates it, `/metrics` does not show it).
 */
export function defineMetric<L extends string, M>(
  Kind: new (config: {
    name: string;
    help: string;
    labelNames: readonly L[];
    registers: Registry[];
    buckets?: number[];
    collect?: () => void;
  }) => M,
  def: MetricDefinition<L> & { readonly buckets?: readonly number[]; readonly collect?: () => void },
  registry: Registry,
  options: MetricStabilityOptions,
): M {
  const { register, help } = resolveMetricStability(def.name, def.help, def, options);
  return new Kind({
    name: def.name,
    help,
    labelNames: def.labelNames,
    registers: register ? [registry] : [],
    ...(def.buckets ? { buckets: [...def.buckets] } : {}),
    ...(def.collect ? { collect: def.collect } : {}),
  });
}

/** Creates the registry and the server's own metrics, deciding stability against `options`. */
export function createServerMetrics(options: MetricStabilityOptions): ServerMetrics {
  const registry = new Registry();
  const requestTotal = defineMetric(
    FastCounter<(typeof requestLabelNames)[number]>,
    {
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: requestLabelNames,
      stabilityLevel: 'STABLE',
    },
    registry,
    options,
  );
  const requestDuration = defineMetric(
    FastHistogram<Exclude<(typeof requestLabelNames)[number], 'code'>>,
    {
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: requestLabelNames.filter((l) => l !== 'code') as Exclude<
        (typeof requestLabelNames)[number],
        'code'
      >[],
      buckets: requestDurationBuckets,
      stabilityLevel: 'STABLE',
    },
    registry,
    options,
  );
  const storageDuration = defineMetric(
    FastHistogram<'operation' | 'type'>,
    {
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      labelNames: ['operation', 'type'],
      buckets: requestDurationBuckets,
      stabilityLevel: 'ALPHA',
    },
    registry,
    options,
  );
  const requestedDeprecatedApis = defineMetric(
    Gauge<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>,
    {
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      stabilityLevel: 'STABLE',
    },
    registry,
    options,
  );
  return {
    registry,
    requestTotal,
    requestDuration,
    storageDuration,
    requestedDeprecatedApis,
    stability: options,
  };
}
