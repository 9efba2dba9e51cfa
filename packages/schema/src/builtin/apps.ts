/** apps/v1 Deployment. */

import { kindSchema } from './core.js';
import { bool, int32, intOrString, obj, str } from './dsl.js';
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
