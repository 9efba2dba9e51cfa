/**
 * HorizontalPodAutoscaler metrics between the autoscaling/v2 shape (`target: {type, averageUtilization,
 * …}`, `metric: {name, selector}`) and the older flat one of v2beta1 and of autoscaling/v1's
 * annotations (`targetAverageUtilization`, `metricName`), both ways.
 */
import { getOwn } from '@orchard/meta/internal';

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** Whether `v` is a JSON object. */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Copies the entries of `src` whose value is defined. */
export function defined(src: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(src)) if (v !== undefined) out[k] = v;
  return out;
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
export function metricToV2(m: Obj, part: 'target' | 'current'): Obj {
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
export function metricToV2beta1(m: Obj, part: 'target' | 'current'): Obj {
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

/** `f` over the objects of a list (anything else kept as it is). */
export const mapList = (v: unknown, f: (m: Obj) => Obj): unknown =>
  Array.isArray(v) ? v.map((m) => (isObj(m) ? f(m) : m)) : v;
