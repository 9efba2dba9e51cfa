/**
 * Lossless conversion of HorizontalPodAutoscaler between autoscaling/v2 (the hub and storage
 * version), v2beta2 (the same shape) and v2beta1 (spec doc 1 §9.4: `targetAverageUtilization`
 * where v2 has `target.averageUtilization` with `target.type: Utilization`). v2beta1 has no
 * `behavior`: it travels in an annotation, as upstream's `autoscaling.alpha.kubernetes.io/behavior`.
 */
import type { ApiObject, Flavor } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Copies the entries of `src` whose value is defined. */
function defined(src: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(src)) if (v !== undefined) out[k] = v;
  return out;
}

/** The annotation v2beta1 objects carry `spec.behavior` in (`autoscaling.alpha.kubernetes.io/behavior`). */
export function behaviorAnnotation(flavor: Flavor): string {
  const domain = flavor.descriptionAnnotation.slice(0, flavor.descriptionAnnotation.indexOf('/'));
  return `autoscaling.alpha.${domain}/behavior`;
}

/** A v2 metric name and selector (`metric: {name, selector}`). */
function metricId(name: unknown, selector: unknown): Obj {
  return defined({ name, selector });
}

/**
 * One v2beta1 metric (spec `MetricSpec` with `part` = 'target', status `MetricStatus` with
 * `part` = 'current') as v2: `<part>AverageUtilization`, `<part>AverageValue` and `<part>Value`
 * move into `<part>: {averageUtilization, averageValue, value}`, the metric name and selector
 * into `metric`; a spec target gets the `type` its values imply.
 */
function metricToV2(m: Obj, part: 'target' | 'current'): Obj {
  const value = (x: Obj, avgKey = `${part}AverageValue`, valueKey = `${part}Value`): Obj => {
    const v = defined({
      averageUtilization: x[`${part}AverageUtilization`],
      averageValue: x[avgKey],
      value: x[valueKey],
    });
    if (part === 'current') return v;
    const type =
      v.averageUtilization !== undefined
        ? 'Utilization'
        : v.averageValue !== undefined
          ? 'AverageValue'
          : 'Value';
    return { type, ...v };
  };
  const out: Obj = { type: m.type };
  for (const key of ['resource', 'containerResource'] as const) {
    const r = getOwn(m, key);
    if (isObj(r)) out[key] = defined({ name: r.name, container: r.container, [part]: value(r) });
  }
  const p = getOwn(m, 'pods');
  if (isObj(p)) out.pods = { metric: metricId(p.metricName, p.selector), [part]: value(p) };
  const o = getOwn(m, 'object');
  if (isObj(o))
    out.object = defined({
      describedObject: o.target,
      metric: metricId(o.metricName, o.selector),
      [part]: value(o, 'averageValue'),
    });
  const e = getOwn(m, 'external');
  if (isObj(e)) out.external = { metric: metricId(e.metricName, e.metricSelector), [part]: value(e) };
  return defined(out);
}

/** One v2 metric as v2beta1: the inverse of `metricToV2` (the target `type` is implied there). */
function metricToV2beta1(m: Obj, part: 'target' | 'current'): Obj {
  const v = (x: Obj): Obj => (isObj(x[part]) ? (x[part] as Obj) : {});
  const id = (x: Obj): Obj => (isObj(x.metric) ? x.metric : {});
  const out: Obj = { type: m.type };
  for (const key of ['resource', 'containerResource'] as const) {
    const r = getOwn(m, key);
    if (isObj(r))
      out[key] = defined({
        name: r.name,
        container: r.container,
        [`${part}AverageUtilization`]: v(r).averageUtilization,
        [`${part}AverageValue`]: v(r).averageValue,
      });
  }
  const p = getOwn(m, 'pods');
  if (isObj(p))
    out.pods = defined({
      metricName: id(p).name,
      selector: id(p).selector,
      [`${part}AverageValue`]: v(p).averageValue,
    });
  const o = getOwn(m, 'object');
  if (isObj(o))
    out.object = defined({
      target: o.describedObject,
      metricName: id(o).name,
      selector: id(o).selector,
      [`${part}Value`]: v(o).value,
      averageValue: v(o).averageValue,
    });
  const e = getOwn(m, 'external');
  if (isObj(e))
    out.external = defined({
      metricName: id(e).name,
      metricSelector: id(e).selector,
      [`${part}Value`]: v(e).value,
      [`${part}AverageValue`]: v(e).averageValue,
    });
  return defined(out);
}

const mapList = (v: unknown, f: (m: Obj) => Obj): unknown =>
  Array.isArray(v) ? v.map((m) => (isObj(m) ? f(m) : m)) : v;

/**
 * The HPA converter for a flavor: any served version to any other through v2. Throws on a version
 * it does not know (the field manager then drops that manager's entry).
 */
export function hpaConversion(flavor: Flavor): (obj: ApiObject, toVersion: string) => ApiObject {
  const annotation = behaviorAnnotation(flavor);
  const toHub = (obj: Obj): Obj => {
    const version = String(obj.apiVersion ?? '').split('/')[1];
    if (version === 'v2' || version === 'v2beta2') return obj;
    if (version !== 'v2beta1')
      throw new Error(`unknown HorizontalPodAutoscaler version ${String(obj.apiVersion)}`);
    const spec = isObj(obj.spec) ? { ...obj.spec } : undefined;
    const meta = isObj(obj.metadata) ? { ...obj.metadata } : {};
    const annotations = isObj(meta.annotations) ? { ...meta.annotations } : undefined;
    if (spec) {
      if (spec.metrics !== undefined) spec.metrics = mapList(spec.metrics, (m) => metricToV2(m, 'target'));
      const behavior = annotations ? getOwn(annotations, annotation) : undefined;
      if (typeof behavior === 'string') {
        try {
          spec.behavior = JSON.parse(behavior);
        } catch {
          // A malformed annotation stays an annotation, as upstream ignores it.
        }
        if (spec.behavior !== undefined && annotations) delete annotations[annotation];
      }
    }
    if (annotations) {
      if (Object.keys(annotations).length > 0) meta.annotations = annotations;
      else delete meta.annotations;
    }
    const status = isObj(obj.status) ? { ...obj.status } : undefined;
    if (status?.currentMetrics !== undefined)
      status.currentMetrics = mapList(status.currentMetrics, (m) => metricToV2(m, 'current'));
    return defined({ ...obj, metadata: meta, spec, status });
  };
  const fromHub = (obj: Obj, version: string): Obj => {
    if (version === 'v2' || version === 'v2beta2') return obj;
    if (version !== 'v2beta1') throw new Error(`unknown HorizontalPodAutoscaler version ${version}`);
    const spec = isObj(obj.spec) ? { ...obj.spec } : undefined;
    const meta = isObj(obj.metadata) ? { ...obj.metadata } : {};
    if (spec) {
      if (spec.metrics !== undefined)
        spec.metrics = mapList(spec.metrics, (m) => metricToV2beta1(m, 'target'));
      if (spec.behavior !== undefined) {
        meta.annotations = {
          ...(isObj(meta.annotations) ? meta.annotations : {}),
          [annotation]: JSON.stringify(spec.behavior),
        };
        delete spec.behavior;
      }
    }
    const status = isObj(obj.status) ? { ...obj.status } : undefined;
    if (status?.currentMetrics !== undefined)
      status.currentMetrics = mapList(status.currentMetrics, (m) => metricToV2beta1(m, 'current'));
    return defined({ ...obj, metadata: meta, spec, status });
  };
  return (obj, toVersion) => {
    const out = fromHub(toHub(obj as Obj), toVersion);
    return { ...out, apiVersion: `autoscaling/${toVersion}` } as ApiObject;
  };
}
