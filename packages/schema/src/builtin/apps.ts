/** apps/v1 Deployment and ReplicaSet. */

import { kindSchema } from './core.js';
import { bool, int32, intOrString, mapList, obj, str, time } from './dsl.js';
import { conditionsList, labelSelectorSchema } from './object-meta.js';
import { podTemplateSpecSchema } from './pod.js';

export const deploymentSchema = kindSchema(
  'Deployment enables declarative updates for Pods and ReplicaSets.',
  {
    spec: obj(
      'Specification of the desired behavior of the Deployment.',
      {
        replicas: int32(
          'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
          { default: 1 },
        ),
        selector: {
          ...labelSelectorSchema,
          description:
            "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
        },
        template: {
          ...podTemplateSpecSchema,
          description:
            'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
        },
        strategy: obj(
          'The deployment strategy to use to replace existing pods with new ones.',
          {
            type: str('Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.', {
              enum: ['Recreate', 'RollingUpdate'],
            }),
            rollingUpdate: obj(
              'Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.',
              {
                maxUnavailable: intOrString(
                  'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.',
                ),
                maxSurge: intOrString(
                  'The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.',
                ),
              },
            ),
          },
          { patchStrategy: 'retainKeys' },
        ),
        minReadySeconds: int32(
          'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.',
        ),
        revisionHistoryLimit: int32(
          'The number of old ReplicaSets to retain to allow rollback. Defaults to 10.',
        ),
        paused: bool('Indicates that the deployment is paused.'),
        progressDeadlineSeconds: int32(
          'The maximum time in seconds for a deployment to make progress before it is considered to be failed. Defaults to 600s.',
        ),
      },
      { required: ['selector', 'template'] },
    ),
    status: obj('Most recently observed status of the Deployment.', {
      observedGeneration: {
        type: 'integer',
        format: 'int64',
        description: 'The generation observed by the deployment controller.',
      },
      replicas: int32(
        'Total number of non-terminated pods targeted by this deployment (their labels match the selector).',
      ),
      updatedReplicas: int32(
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      ),
      readyReplicas: int32(
        'Total number of non-terminated pods targeted by this Deployment with a Ready Condition.',
      ),
      availableReplicas: int32(
        'Total number of available non-terminated pods (ready for at least minReadySeconds) targeted by this deployment.',
      ),
      unavailableReplicas: int32('Total number of unavailable pods targeted by this deployment.'),
      terminatingReplicas: int32('Total number of terminating pods targeted by this deployment.'),
      conditions: conditionsList(
        "Represents the latest available observations of a deployment's current state.",
      ),
      collisionCount: int32('Count of hash collisions for the Deployment.'),
    }),
  },
);

const replicaSetConditionSchema = obj(
  'ReplicaSetCondition describes the state of a replica set at a certain point.',
  {
    type: str('Type of replica set condition.'),
    status: str('Status of the condition, one of True, False, Unknown.'),
    lastTransitionTime: time('The last time the condition transitioned from one status to another.'),
    reason: str("The reason for the condition's last transition."),
    message: str('A human readable message indicating details about the transition.'),
  },
  { required: ['type', 'status'] },
);

/** apps/v1 ReplicaSet (upstream k8s.io/api/apps/v1 ReplicaSetSpec/ReplicaSetStatus). */
export const replicaSetSchema = kindSchema(
  'ReplicaSet ensures that a specified number of pod replicas are running at any given time.',
  {
    spec: obj(
      'Spec defines the specification of the desired behavior of the ReplicaSet.',
      {
        replicas: int32(
          'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.',
          { default: 1 },
        ),
        minReadySeconds: int32(
          'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)',
        ),
        selector: {
          ...labelSelectorSchema,
          description:
            "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels.",
        },
        template: {
          ...podTemplateSpecSchema,
          description:
            'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
        },
      },
      { required: ['selector'] },
    ),
    status: obj(
      'Status is the most recently observed status of the ReplicaSet.',
      {
        replicas: int32('Replicas is the most recently observed number of non-terminating pods.'),
        fullyLabeledReplicas: int32(
          'The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.',
        ),
        readyReplicas: int32(
          'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
        ),
        availableReplicas: int32(
          'The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.',
        ),
        terminatingReplicas: int32('The number of terminating pods for this replica set.'),
        observedGeneration: {
          type: 'integer',
          format: 'int64',
          description: 'ObservedGeneration reflects the generation of the most recently observed ReplicaSet.',
        },
        conditions: {
          ...mapList(
            "Represents the latest available observations of a replica set's current state.",
            replicaSetConditionSchema,
            ['type'],
          ),
        },
      },
      { required: ['replicas'] },
    ),
  },
);
