/**
 * HorizontalPodAutoscaler autoscaling/v1 ↔ v2, losslessly as upstream does it: v1 has only
 * `targetCPUUtilizationPercentage` and `currentCPUUtilizationPercentage`; every other metric, the
 * metric statuses, `behavior` and the status conditions travel in the annotations
 * `autoscaling.alpha.<domain>/metrics`, `…/current-metrics`, `…/behavior` and `…/conditions`
 * (upstream `autoscaling.alpha.kubernetes.io/…`), metrics in v1's flat `targetAverageUtilization`
 * form. Reading v1 drops those annotations; a v1 object with no metric gets upstream's default, CPU
 * at 80% utilization.
 */
import type { Flavor } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';
import { defined, isObj, mapList, metricToV2, metricToV2beta1, type Obj } from './hpa-metrics.js';

/** The round-trip annotations of autoscaling/v1 under a flavor. */
export interface HpaV1Annotations {
  readonly metrics: string;
  readonly currentMetrics: string;
  readonly behavior: string;
  readonly conditions: string;
}

/** Upstream's `autoscaling.DefaultCPUUtilization`: the target of a v1 HPA that names none. */
export const defaultCpuUtilization = 80;

/** The annotation names for a flavor (`autoscaling.alpha.kubernetes.io/metrics` …). */
export function hpaV1Annotations(flavor: Flavor): HpaV1Annotations {
  const domain = flavor.descriptionAnnotation.slice(0, flavor.descriptionAnnotation.indexOf('/'));
  const name = (n: string) => `autoscaling.alpha.${domain}/${n}`;
  return Object.freeze({
    metrics: name('metrics'),
    currentMetrics: name('current-metrics'),
    behavior: name('behavior'),
    conditions: name('conditions'),
  });
}

/** A v2 CPU utilization metric (spec `target`, status `current`). */
const cpuMetric = (part: 'target' | 'current', value: unknown): Obj => ({
  type: 'Resource',
  resource: {
    name: 'cpu',
    [part]:
      part === 'target' ? { type: 'Utilization', averageUtilization: value } : { averageUtilization: value },
  },
});

/** Whether a v2 metric is the CPU utilization v1 has a field for. */
function isCpuUtilization(m: unknown, part: 'target' | 'current'): boolean {
  if (!isObj(m) || m.type !== 'Resource' || !isObj(m.resource) || m.resource.name !== 'cpu') return false;
  const v = getOwn(m.resource, part);
  return isObj(v) && v.averageUtilization !== undefined;
}

/** An annotation's JSON when it parses to `want`; upstream ignores one that does not. */
function annotationJson(annotations: Obj, key: string, want: 'array' | 'object'): unknown {
  const text = getOwn(annotations, key);
  if (typeof text !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return (want === 'array' ? Array.isArray(v) : isObj(v)) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A v1 object as the v2 hub. */
export function hpaV1ToHub(obj: Obj, names: HpaV1Annotations): Obj {
  const meta = isObj(obj.metadata) ? { ...obj.metadata } : {};
  const annotations: Obj = isObj(meta.annotations) ? { ...meta.annotations } : {};
  const v1spec = isObj(obj.spec) ? obj.spec : undefined;
  let spec: Obj | undefined;
  if (v1spec) {
    const { targetCPUUtilizationPercentage: cpu, ...rest } = v1spec;
    const other = annotationJson(annotations, names.metrics, 'array');
    const metrics = [
      ...((mapList(other ?? [], (m) => metricToV2(m, 'target')) as unknown[]) ?? []),
      ...(cpu !== undefined ? [cpuMetric('target', cpu)] : []),
    ];
    spec = { ...rest, metrics: metrics.length > 0 ? metrics : [cpuMetric('target', defaultCpuUtilization)] };
    const behavior = annotationJson(annotations, names.behavior, 'object');
    if (behavior !== undefined) spec.behavior = behavior;
  }
  let status: Obj | undefined;
  if (isObj(obj.status)) {
    const { currentCPUUtilizationPercentage: cpu, ...rest } = obj.status;
    status = { ...rest };
    if (cpu !== undefined) status.currentMetrics = [cpuMetric('current', cpu)];
    // The annotation has every status metric (the CPU one included): it wins.
    const current = annotationJson(annotations, names.currentMetrics, 'array');
    if (current !== undefined) status.currentMetrics = mapList(current, (m) => metricToV2(m, 'current'));
    const conditions = annotationJson(annotations, names.conditions, 'array');
    if (conditions !== undefined) status.conditions = conditions;
  }
  for (const key of Object.values(names)) delete annotations[key];
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  return defined({ ...obj, metadata: meta, spec, status });
}

/** The v2 hub as a v1 object. */
export function hubToHpaV1(obj: Obj, names: HpaV1Annotations): Obj {
  const meta = isObj(obj.metadata) ? { ...obj.metadata } : {};
  // Round-trip annotations the hub carries are not ours: only what this conversion writes counts.
  const annotations: Obj = isObj(meta.annotations) ? { ...meta.annotations } : {};
  for (const key of Object.values(names)) delete annotations[key];
  let spec: Obj | undefined;
  if (isObj(obj.spec)) {
    const { metrics, behavior, ...rest } = obj.spec;
    spec = { ...rest };
    const list = Array.isArray(metrics) ? metrics : [];
    const cpu = list.find((m) => isCpuUtilization(m, 'target')) as Obj | undefined;
    if (cpu) spec.targetCPUUtilizationPercentage = ((cpu.resource as Obj).target as Obj).averageUtilization;
    const other = list.filter((m) => !isCpuUtilization(m, 'target'));
    if (other.length > 0)
      annotations[names.metrics] = JSON.stringify(mapList(other, (m) => metricToV2beta1(m, 'target')));
    if (behavior !== undefined && behavior !== null) annotations[names.behavior] = JSON.stringify(behavior);
  }
  let status: Obj | undefined;
  if (isObj(obj.status)) {
    const { currentMetrics, conditions, ...rest } = obj.status;
    status = { ...rest };
    const list = Array.isArray(currentMetrics) ? currentMetrics : [];
    const cpu = list.find((m) => isCpuUtilization(m, 'current')) as Obj | undefined;
    if (cpu)
      status.currentCPUUtilizationPercentage = ((cpu.resource as Obj).current as Obj).averageUtilization;
    if (list.length > 0)
      annotations[names.currentMetrics] = JSON.stringify(mapList(list, (m) => metricToV2beta1(m, 'current')));
    if (Array.isArray(conditions) && conditions.length > 0)
      annotations[names.conditions] = JSON.stringify(conditions);
  }
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  return defined({ ...obj, metadata: meta, spec, status });
}
