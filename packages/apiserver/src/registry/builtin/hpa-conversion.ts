/**
 * Lossless conversion of HorizontalPodAutoscaler between autoscaling/v2 (the hub and storage
 * version), v2beta2 (the same shape) and v2beta1 (spec doc 1 §9.4: `targetAverageUtilization`
 * where v2 has `target.averageUtilization` with `target.type: Utilization`). v2beta1 has no
 * `behavior`: it travels in an annotation, as upstream's `autoscaling.alpha.kubernetes.io/behavior`.
 * autoscaling/v1 (CPU utilization only, the rest in annotations) is in `hpa-v1-conversion.ts`.
 */
import type { ApiObject, Flavor } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';
import { defined, isObj, mapList, metricToV2, metricToV2beta1, type Obj } from './hpa-metrics.js';
import { hpaV1Annotations, hpaV1ToHub, hubToHpaV1 } from './hpa-v1-conversion.js';

/** The annotation v2beta1 objects carry `spec.behavior` in (`autoscaling.alpha.kubernetes.io/behavior`). */
export function behaviorAnnotation(flavor: Flavor): string {
  const domain = flavor.descriptionAnnotation.slice(0, flavor.descriptionAnnotation.indexOf('/'));
  return `autoscaling.alpha.${domain}/behavior`;
}

/**
 * The HPA converter for a flavor: any served version to any other through v2. Throws on a version
 * it does not know (the field manager then drops that manager's entry).
 */
export function hpaConversion(flavor: Flavor): (obj: ApiObject, toVersion: string) => ApiObject {
  const annotation = behaviorAnnotation(flavor);
  const v1Annotations = hpaV1Annotations(flavor);
  const toHub = (obj: Obj): Obj => {
    const version = String(obj.apiVersion ?? '').split('/')[1];
    if (version === 'v2' || version === 'v2beta2') return obj;
    if (version === 'v1') return hpaV1ToHub(obj, v1Annotations);
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
    if (version === 'v1') return hubToHpaV1(obj, v1Annotations);
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
