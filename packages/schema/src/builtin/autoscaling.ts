/**
 * autoscaling HorizontalPodAutoscaler at v2 (and v2beta2, the same shape) and v2beta1 (the older
 * metric shape: `targetAverageUtilization` where v2 has `target.averageUtilization`), after
 * upstream k8s.io/api/autoscaling.
 */
import type { StructuralSchema } from '../structural.js';
import { kindSchema } from './core.js';
import { atomicList, int32, int64, obj, quantity, str, time } from './dsl.js';
import { conditionsList, labelSelectorSchema } from './object-meta.js';

const crossVersionObjectReference = obj(
  'CrossVersionObjectReference contains enough information to let you identify the referred resource.',
  {
    kind: str('kind is the kind of the referent.'),
    name: str('name is the name of the referent.'),
    apiVersion: str('apiVersion is the API version of the referent.'),
  },
  { required: ['kind', 'name'] },
);

const metricIdentifier = obj(
  'MetricIdentifier defines the name and optionally selector for a metric',
  {
    name: str('name is the name of the given metric'),
    selector: {
      ...labelSelectorSchema,
      description: 'selector is the string-encoded form of a standard label selector for the given metric.',
    },
  },
  { required: ['name'] },
);

const metricTarget = obj(
  'MetricTarget defines the target value, average value, or average utilization of a specific metric',
  {
    type: str('type represents whether the metric type is Utilization, Value, or AverageValue'),
    value: quantity('value is the target value of the metric (as a quantity).'),
    averageValue: quantity(
      'averageValue is the target value of the average of the metric across all relevant pods (as a quantity)',
    ),
    averageUtilization: int32(
      'averageUtilization is the target value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods.',
    ),
  },
  { required: ['type'] },
);

const metricValueStatus = obj('MetricValueStatus holds the current value for a metric', {
  value: quantity('value is the current value of the metric (as a quantity).'),
  averageValue: quantity(
    'averageValue is the current value of the average of the metric across all relevant pods (as a quantity)',
  ),
  averageUtilization: int32(
    'currentAverageUtilization is the current value of the average of the resource metric across all relevant pods.',
  ),
});

const metricSpecV2 = obj(
  'MetricSpec specifies how to scale based on a single metric (only `type` and one other matching field should be set at once).',
  {
    type: str('type is the type of metric source: ContainerResource, External, Object, Pods or Resource.'),
    object: obj(
      'ObjectMetricSource indicates how to scale on a metric describing a kubernetes object.',
      { describedObject: crossVersionObjectReference, target: metricTarget, metric: metricIdentifier },
      { required: ['describedObject', 'target', 'metric'] },
    ),
    pods: obj(
      'PodsMetricSource indicates how to scale on a metric describing each pod in the current scale target.',
      { metric: metricIdentifier, target: metricTarget },
      { required: ['metric', 'target'] },
    ),
    resource: obj(
      'ResourceMetricSource indicates how to scale on a resource metric known to Kubernetes.',
      { name: str('name is the name of the resource in question.'), target: metricTarget },
      { required: ['name', 'target'] },
    ),
    containerResource: obj(
      'ContainerResourceMetricSource indicates how to scale on a resource metric of a container.',
      {
        name: str('name is the name of the resource in question.'),
        target: metricTarget,
        container: str('container is the name of the container in the pods of the scaling target'),
      },
      { required: ['name', 'target', 'container'] },
    ),
    external: obj(
      'ExternalMetricSource indicates how to scale on a metric not associated with any Kubernetes object.',
      { metric: metricIdentifier, target: metricTarget },
      { required: ['metric', 'target'] },
    ),
  },
  { required: ['type'] },
);

const metricStatusV2 = obj('MetricStatus describes the last-read state of a single metric.', {
  type: str('type is the type of metric source.'),
  object: obj('ObjectMetricStatus', {
    metric: metricIdentifier,
    current: metricValueStatus,
    describedObject: crossVersionObjectReference,
  }),
  pods: obj('PodsMetricStatus', { metric: metricIdentifier, current: metricValueStatus }),
  resource: obj('ResourceMetricStatus', { name: str('name of the resource'), current: metricValueStatus }),
  containerResource: obj('ContainerResourceMetricStatus', {
    name: str('name of the resource'),
    current: metricValueStatus,
    container: str('container name'),
  }),
  external: obj('ExternalMetricStatus', { metric: metricIdentifier, current: metricValueStatus }),
});

const scalingRules = obj('HPAScalingRules configures the scaling behavior for one direction.', {
  stabilizationWindowSeconds: int32(
    'stabilizationWindowSeconds is the number of seconds for which past recommendations should be considered while scaling up or scaling down.',
  ),
  selectPolicy: str(
    'selectPolicy is used to specify which policy should be used. If not set, the default value Max is used.',
  ),
  policies: atomicList(
    'policies is a list of potential scaling polices which can be used during scaling.',
    obj(
      'HPAScalingPolicy is a single policy which must hold true for a specified past interval.',
      {
        type: str('type is used to specify the scaling policy.'),
        value: int32('value contains the amount of change which is permitted by the policy.'),
        periodSeconds: int32(
          'periodSeconds specifies the window of time for which the policy should hold true.',
        ),
      },
      { required: ['type', 'value', 'periodSeconds'] },
    ),
  ),
});

const commonSpec = {
  scaleTargetRef: crossVersionObjectReference,
  minReplicas: int32(
    'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
  ),
  maxReplicas: int32(
    'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
  ),
};
const commonStatus = {
  observedGeneration: int64('observedGeneration is the most recent generation observed by this autoscaler.'),
  lastScaleTime: time(
    'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods.',
  ),
  currentReplicas: int32('currentReplicas is current number of replicas of pods managed by this autoscaler.'),
  desiredReplicas: int32(
    'desiredReplicas is the desired number of replicas of pods managed by this autoscaler.',
  ),
  conditions: conditionsList(
    'conditions is the set of conditions required for this autoscaler to scale its target.',
  ),
};

/** autoscaling/v2 (and v2beta2) HorizontalPodAutoscaler. */
export const horizontalPodAutoscalerV2Schema: StructuralSchema = kindSchema(
  'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler.',
  {
    spec: obj(
      'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.',
      {
        ...commonSpec,
        metrics: atomicList(
          'metrics contains the specifications for which to use to calculate the desired replica count.',
          metricSpecV2,
        ),
        behavior: obj('HorizontalPodAutoscalerBehavior configures the scaling behavior of the target.', {
          scaleUp: scalingRules,
          scaleDown: scalingRules,
        }),
      },
      { required: ['scaleTargetRef', 'maxReplicas'] },
    ),
    status: obj(
      'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.',
      {
        ...commonStatus,
        currentMetrics: atomicList(
          'currentMetrics is the last read state of the metrics used by this autoscaler.',
          metricStatusV2,
        ),
      },
    ),
  },
);

const nameAndSelector = {
  metricName: str('metricName is the name of the metric in question.'),
  selector: labelSelectorSchema,
};

/** autoscaling/v2beta1 HorizontalPodAutoscaler (no `behavior`; per-source target fields). */
export const horizontalPodAutoscalerV2beta1Schema: StructuralSchema = kindSchema(
  'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler.',
  {
    spec: obj(
      'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.',
      {
        ...commonSpec,
        metrics: atomicList(
          'metrics contains the specifications for which to use to calculate the desired replica count.',
          obj(
            'MetricSpec specifies how to scale based on a single metric.',
            {
              type: str('type is the type of metric source.'),
              object: obj('ObjectMetricSource', {
                target: crossVersionObjectReference,
                ...nameAndSelector,
                targetValue: quantity('targetValue'),
                averageValue: quantity('averageValue'),
              }),
              pods: obj('PodsMetricSource', {
                ...nameAndSelector,
                targetAverageValue: quantity('targetAverageValue'),
              }),
              resource: obj('ResourceMetricSource', {
                name: str('name'),
                targetAverageUtilization: int32('targetAverageUtilization'),
                targetAverageValue: quantity('targetAverageValue'),
              }),
              containerResource: obj('ContainerResourceMetricSource', {
                name: str('name'),
                container: str('container'),
                targetAverageUtilization: int32('targetAverageUtilization'),
                targetAverageValue: quantity('targetAverageValue'),
              }),
              external: obj('ExternalMetricSource', {
                metricName: str('metricName'),
                metricSelector: labelSelectorSchema,
                targetValue: quantity('targetValue'),
                targetAverageValue: quantity('targetAverageValue'),
              }),
            },
            { required: ['type'] },
          ),
        ),
      },
      { required: ['scaleTargetRef', 'maxReplicas'] },
    ),
    status: obj(
      'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.',
      {
        ...commonStatus,
        currentMetrics: atomicList(
          'currentMetrics is the last read state of the metrics used by this autoscaler.',
          obj('MetricStatus', {
            type: str('type'),
            object: obj('ObjectMetricStatus', {
              target: crossVersionObjectReference,
              ...nameAndSelector,
              currentValue: quantity('currentValue'),
              averageValue: quantity('averageValue'),
            }),
            pods: obj('PodsMetricStatus', {
              ...nameAndSelector,
              currentAverageValue: quantity('currentAverageValue'),
            }),
            resource: obj('ResourceMetricStatus', {
              name: str('name'),
              currentAverageUtilization: int32('currentAverageUtilization'),
              currentAverageValue: quantity('currentAverageValue'),
            }),
            containerResource: obj('ContainerResourceMetricStatus', {
              name: str('name'),
              container: str('container'),
              currentAverageUtilization: int32('currentAverageUtilization'),
              currentAverageValue: quantity('currentAverageValue'),
            }),
            external: obj('ExternalMetricStatus', {
              metricName: str('metricName'),
              metricSelector: labelSelectorSchema,
              currentValue: quantity('currentValue'),
              currentAverageValue: quantity('currentAverageValue'),
            }),
          }),
        ),
      },
    ),
  },
);
