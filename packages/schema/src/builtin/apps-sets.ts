/** apps/v1 StatefulSet and DaemonSet (upstream k8s.io/api/apps/v1). */
import { kindSchema } from './core.js';
import { atomicList, int32, int64, intOrString, mapList, obj, str, time } from './dsl.js';
import { labelSelectorSchema } from './object-meta.js';
import { podTemplateSpecSchema } from './pod.js';
import { persistentVolumeClaimTemplateSchema } from './storage.js';

const appsCondition = (what: string) =>
  obj(
    `${what}Condition describes the state of a ${what.toLowerCase()} at a certain point.`,
    {
      type: str(`Type of ${what.toLowerCase()} condition.`),
      status: str('Status of the condition, one of True, False, Unknown.'),
      lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
      reason: str("The reason for the condition's last transition."),
      message: str('A human readable message indicating details about the transition.'),
    },
    { required: ['type', 'status'] },
  );
const observedGeneration = (description: string) => int64(description);

/** apps/v1 StatefulSet. */
export const statefulSetSchema = kindSchema(
  'StatefulSet represents a set of pods with consistent identities.',
  {
    spec: obj(
      'Spec defines the desired identities of pods in this set.',
      {
        replicas: int32('replicas is the desired number of replicas of the given Template. Defaults to 1.', {
          default: 1,
        }),
        selector: {
          ...labelSelectorSchema,
          description:
            "selector is a label query over pods that should match the replica count. It must match the pod template's labels.",
        },
        template: {
          ...podTemplateSpecSchema,
          description:
            'template is the object that describes the pod that will be created if insufficient replicas are detected.',
        },
        volumeClaimTemplates: atomicList(
          'volumeClaimTemplates is a list of claims that pods are allowed to reference.',
          persistentVolumeClaimTemplateSchema,
        ),
        serviceName: str('serviceName is the name of the service that governs this StatefulSet.'),
        podManagementPolicy: str(
          'podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. The default policy is `OrderedReady`.',
          {
            enum: ['OrderedReady', 'Parallel'],
          },
        ),
        updateStrategy: obj(
          'updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.',
          {
            type: str('Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.', {
              enum: ['OnDelete', 'RollingUpdate'],
            }),
            rollingUpdate: obj(
              'RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.',
              {
                partition: int32(
                  'Partition indicates the ordinal at which the StatefulSet should be partitioned for updates.',
                ),
                maxUnavailable: intOrString(
                  'The maximum number of pods that can be unavailable during the update.',
                ),
              },
            ),
          },
        ),
        revisionHistoryLimit: int32(
          "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. Defaults to 10.",
        ),
        minReadySeconds: int32(
          'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing for it to be considered available.',
        ),
        persistentVolumeClaimRetentionPolicy: obj(
          'persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates.',
          {
            whenDeleted: str(
              'WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted.',
            ),
            whenScaled: str(
              'WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down.',
            ),
          },
        ),
        ordinals: obj('ordinals controls the numbering of replica indices in a StatefulSet.', {
          start: int32("start is the number representing the first replica's index."),
        }),
      },
      { required: ['selector', 'template'] },
    ),
    status: obj(
      'Status is the current status of Pods in this StatefulSet.',
      {
        observedGeneration: observedGeneration(
          'observedGeneration is the most recent generation observed for this StatefulSet.',
        ),
        replicas: int32('replicas is the number of Pods created by the StatefulSet controller.'),
        readyReplicas: int32(
          'readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.',
        ),
        currentReplicas: int32(
          'currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.',
        ),
        updatedReplicas: int32(
          'updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.',
        ),
        currentRevision: str(
          'currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).',
        ),
        updateRevision: str(
          'updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)',
        ),
        collisionCount: int32('collisionCount is the count of hash collisions for the StatefulSet.'),
        conditions: mapList(
          "Represents the latest available observations of a statefulset's current state.",
          appsCondition('StatefulSet'),
          ['type'],
        ),
        availableReplicas: int32(
          'Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.',
        ),
      },
      { required: ['replicas'] },
    ),
  },
);

/** apps/v1 DaemonSet. */
export const daemonSetSchema = kindSchema('DaemonSet represents the configuration of a daemon set.', {
  spec: obj(
    'The desired behavior of this daemon set.',
    {
      selector: {
        ...labelSelectorSchema,
        description:
          "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels.",
      },
      template: {
        ...podTemplateSpecSchema,
        description:
          'An object that describes the pod that will be created. The only allowed template.spec.restartPolicy value is "Always".',
      },
      updateStrategy: obj('An update strategy to replace existing DaemonSet pods with new pods.', {
        type: str(
          'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.',
          { enum: ['OnDelete', 'RollingUpdate'] },
        ),
        rollingUpdate: obj('Rolling update config params. Present only if type = "RollingUpdate".', {
          maxUnavailable: intOrString(
            'The maximum number of DaemonSet pods that can be unavailable during the update.',
          ),
          maxSurge: intOrString(
            'The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update.',
          ),
        }),
      }),
      minReadySeconds: int32(
        'The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.',
      ),
      revisionHistoryLimit: int32('The number of old history to retain to allow rollback. Defaults to 10.'),
    },
    { required: ['selector', 'template'] },
  ),
  status: obj(
    'The current status of this daemon set.',
    {
      currentNumberScheduled: int32(
        'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
      ),
      numberMisscheduled: int32(
        'The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.',
      ),
      desiredNumberScheduled: int32(
        'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).',
      ),
      numberReady: int32(
        'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
      ),
      observedGeneration: observedGeneration(
        'The most recent generation observed by the daemon set controller.',
      ),
      updatedNumberScheduled: int32('The total number of nodes that are running updated daemon pod'),
      numberAvailable: int32(
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      ),
      numberUnavailable: int32(
        'The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      ),
      collisionCount: int32('Count of hash collisions for the DaemonSet.'),
      conditions: mapList(
        "Represents the latest available observations of a DaemonSet's current state.",
        appsCondition('DaemonSet'),
        ['type'],
      ),
    },
    { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'] },
  ),
});
