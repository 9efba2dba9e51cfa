/**
 * HorizontalPodAutoscaler columns as upstream's `printHorizontalPodAutoscaler` prints them
 * (`kubectl get hpa`: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE). The cells read the
 * autoscaling/v2 shape; the server converts an object of another version to v2 before printing, as
 * upstream prints the internal version.
 */
import { tryParseQuantity } from '@orchard/meta';
import { ageColumn, ageOf, arr, col, convertor, nameOf, num, type Obj, obj, str } from './builtin-cells.js';
import { nameColumn } from './table.js';
import type { TableConvertor } from './types.js';

/** A quantity in its canonical form (upstream `Quantity.String()`); the text itself if it does not parse. */
function quantity(v: unknown): string {
  if (typeof v === 'number') return tryParseQuantity(String(v))?.toString() ?? String(v);
  const s = str(v);
  return tryParseQuantity(s)?.toString() ?? s;
}

/** A `*Quantity` as upstream prints it: `<nil>` when unset. */
const q = (v: unknown): string => (v === undefined || v === null ? '<nil>' : quantity(v));

/** One metric of the TARGETS column: `<current>/<target>`, upstream's `formatHPAMetrics` case by case. */
function formatMetric(spec: Obj, status: Obj | undefined): string {
  const unknown = '<unknown>';
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = obj(obj(spec[key]).target);
      const cur = status?.[key] === undefined ? undefined : obj(obj(status[key]).current);
      if (target.averageValue !== undefined) {
        const current = cur?.averageValue !== undefined ? quantity(cur.averageValue) : unknown;
        return `${current}/${quantity(target.averageValue)} (avg)`;
      }
      const current = cur ? q(cur.value) : unknown;
      return `${current}/${q(target.value)}`;
    }
    case 'Pods': {
      const target = obj(obj(spec.pods).target);
      const cur = status?.pods === undefined ? undefined : obj(obj(status.pods).current);
      return `${cur ? q(cur.averageValue) : unknown}/${q(target.averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const source = obj(spec[key]);
      const target = obj(source.target);
      const cur = status?.[key] === undefined ? undefined : obj(obj(status[key]).current);
      if (target.averageValue !== undefined) {
        const current = cur ? q(cur.averageValue) : unknown;
        return `${str(source.name)}: ${current}/${quantity(target.averageValue)}`;
      }
      const current = cur?.averageUtilization !== undefined ? `${num(cur.averageUtilization)}%` : unknown;
      const goal = target.averageUtilization !== undefined ? `${num(target.averageUtilization)}%` : '<auto>';
      return `${str(source.name)}: ${current}/${goal}`;
    }
    default:
      return '<unknown type>';
  }
}

/** The TARGETS cell: the first two metrics, then `+ N more...`; `<none>` without metrics. */
export function formatHpaMetrics(specs: unknown, statuses: unknown): string {
  const list = arr(specs);
  if (list.length === 0) return '<none>';
  const current = arr(statuses);
  const shown = list.slice(0, 2).map((m, i) => formatMetric(m, current[i]));
  const more = list.length - shown.length;
  return more > 0 ? `${shown.join(', ')} + ${more} more...` : shown.join(', ');
}

/** `horizontalpodautoscalers` (autoscaling/v2 shape). */
export const horizontalPodAutoscalerTable: TableConvertor = convertor(
  [
    nameColumn,
    col(
      'Reference',
      'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
    ),
    col(
      'Targets',
      'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.',
    ),
    col(
      'MinPods',
      'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
    ),
    col(
      'MaxPods',
      'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
    ),
    col(
      'Replicas',
      'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
    ),
    ageColumn,
  ],
  (o, ctx) => {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const ref = obj(spec.scaleTargetRef);
    return [
      nameOf(o),
      `${str(ref.kind)}/${str(ref.name)}`,
      formatHpaMetrics(spec.metrics, status.currentMetrics),
      typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
      num(spec.maxReplicas),
      num(status.currentReplicas),
      ageOf(o, ctx),
    ];
  },
);
