/** batch/v1 Job and CronJob (upstream k8s.io/api/batch/v1). */
import type { StructuralSchema } from '../structural.js';
import { kindSchema } from './core.js';
import { atomicList, bool, int32, int64, obj, str, time } from './dsl.js';
import { labelSelectorSchema, objectMetaSchema, objectReferenceSchema } from './object-meta.js';
import { podTemplateSpecSchema } from './pod.js';

const podFailurePolicySchema = obj(
  'PodFailurePolicy describes how failed pods influence the backoffLimit.',
  {
    rules: atomicList(
      'A list of pod failure policy rules. The rules are evaluated in order. Once a rule matches a Pod failure, the remaining of the rules are ignored. When no rule matches the Pod failure, the default handling applies - the counter of pod failures is incremented and it is checked against the backoffLimit. At most 20 elements are allowed.',
      obj(
        'PodFailurePolicyRule describes how a pod failure is handled when the requirements are met. One of onExitCodes and onPodConditions, but not both, can be used in each rule.',
        {
          action: str('Specifies the action taken on a pod failure when the requirements are satisfied.', {
            enum: ['Count', 'FailIndex', 'FailJob', 'Ignore'],
          }),
          onExitCodes: obj(
            'Represents the requirement on the container exit codes.',
            {
              containerName: str(
                'Restricts the check for exit codes to the container with the specified name.',
              ),
              operator: str(
                'Represents the relationship between the container exit code(s) and the specified values. Containers completed with success (exit code 0) are excluded from the requirement check.',
                { enum: ['In', 'NotIn'] },
              ),
              values: {
                type: 'array',
                description:
                  'Specifies the set of values. Each returned container exit code is checked against this set of values with respect to the operator.',
                items: { type: 'integer', format: 'int32' },
                listType: 'set',
              },
            },
            { required: ['operator', 'values'] },
          ),
          onPodConditions: atomicList(
            'Represents the requirement on the pod conditions. The requirement is represented as a list of pod condition patterns. The requirement is satisfied if at least one pattern matches an actual pod condition. At most 20 elements are allowed.',
            obj(
              'PodFailurePolicyOnPodConditionsPattern describes a pattern for matching an actual pod condition type.',
              {
                type: str('Specifies the required Pod condition type.'),
                status: str('Specifies the required Pod condition status. Defaults to True.'),
              },
              { required: ['type'] },
            ),
          ),
        },
        { required: ['action'] },
      ),
    ),
  },
  { required: ['rules'] },
);

const successPolicySchema = obj(
  'SuccessPolicy describes when a Job can be declared as succeeded based on the success of some indexes.',
  {
    rules: atomicList(
      'rules represents the list of alternative rules for the declaring the Jobs as successful before `.status.succeeded >= .spec.completions`.',
      obj('SuccessPolicyRule describes rule for declaring a Job as succeeded.', {
        succeededIndexes: str(
          'succeededIndexes specifies the set of indexes which need to be contained in the actual set of the succeeded indexes for the Job.',
        ),
        succeededCount: int32(
          'succeededCount specifies the minimal required size of the actual set of the succeeded indexes for the Job.',
        ),
      }),
    ),
  },
  { required: ['rules'] },
);

/** The JobSpec schema (also a CronJob's `spec.jobTemplate.spec`). */
export const jobSpecSchema: StructuralSchema = obj(
  'JobSpec describes how the job execution will look like.',
  {
    parallelism: int32('Specifies the maximum desired number of pods the job should run at any given time.'),
    completions: int32(
      'Specifies the desired number of successfully finished pods the job should be run with. Setting to null means that the success of any pod signals the success of all pods, and allows parallelism to have any positive value. Setting to 1 means that parallelism is limited to 1 and the success of that pod signals the success of the job.',
    ),
    activeDeadlineSeconds: int64(
      'Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it; value must be positive integer.',
    ),
    podFailurePolicy: podFailurePolicySchema,
    successPolicy: successPolicySchema,
    backoffLimit: int32('Specifies the number of retries before marking this job failed. Defaults to 6'),
    backoffLimitPerIndex: int32(
      'Specifies the limit for the number of retries within an index before marking this index as failed.',
    ),
    maxFailedIndexes: int32(
      'Specifies the maximal number of failed indexes before marking the Job as failed, when backoffLimitPerIndex is set.',
    ),
    selector: {
      ...labelSelectorSchema,
      description:
        'A label query over pods that should match the pod count. Normally, the system sets this field for you.',
    },
    manualSelector: bool(
      'manualSelector controls generation of pod labels and pod selectors. Leave `manualSelector` unset unless you are certain what you are doing.',
    ),
    template: {
      ...podTemplateSpecSchema,
      description:
        'Describes the pod that will be created when executing a job. The only allowed template.spec.restartPolicy values are "Never" or "OnFailure".',
    },
    ttlSecondsAfterFinished: int32(
      'ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed).',
    ),
    completionMode: str(
      'completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`.',
      {
        enum: ['Indexed', 'NonIndexed'],
      },
    ),
    suspend: bool(
      'suspend specifies whether the Job controller should create Pods or not. Defaults to false.',
    ),
    podReplacementPolicy: str('podReplacementPolicy specifies when to create replacement Pods.', {
      enum: ['Failed', 'TerminatingOrFailed'],
    }),
    managedBy: str(
      "ManagedBy field indicates the controller that manages a Job. The k8s Job controller reconciles jobs which don't have this field at all or the field value is the reserved string `kubernetes.io/job-controller`.",
    ),
  },
  { required: ['template'] },
);

const jobStatusSchema = obj('JobStatus represents the current state of a Job.', {
  conditions: atomicList(
    "The latest available observations of an object's current state.",
    obj(
      'JobCondition describes current state of a job.',
      {
        type: str('Type of job condition, Complete or Failed.'),
        status: str('Status of the condition, one of True, False, Unknown.'),
        lastProbeTime: time('Last time the condition was checked.'),
        lastTransitionTime: time('Last time the condition transit from one status to another.'),
        reason: str("(brief) reason for the condition's last transition."),
        message: str('Human readable message indicating details about last transition.'),
      },
      { required: ['type', 'status'] },
    ),
  ),
  startTime: time('Represents time when the job controller started processing a job.'),
  completionTime: time('Represents time when the job was completed.'),
  active: int32(
    'The number of pending and running pods which are not terminating (without a deletionTimestamp).',
  ),
  succeeded: int32('The number of pods which reached phase Succeeded.'),
  failed: int32('The number of pods which reached phase Failed.'),
  terminating: int32(
    'The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).',
  ),
  completedIndexes: str(
    'completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format.',
  ),
  failedIndexes: str('FailedIndexes holds the failed indexes when spec.backoffLimitPerIndex is set.'),
  uncountedTerminatedPods: obj(
    "uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn't yet accounted for in the status counters.",
    {
      succeeded: {
        type: 'array',
        description: 'succeeded holds UIDs of succeeded Pods.',
        items: { type: 'string' },
        listType: 'set',
      },
      failed: {
        type: 'array',
        description: 'failed holds UIDs of failed Pods.',
        items: { type: 'string' },
        listType: 'set',
      },
    },
  ),
  ready: int32(
    'The number of active pods which have a Ready condition and are not terminating (without a deletionTimestamp).',
  ),
});

/** batch/v1 Job. */
export const jobSchema = kindSchema('Job represents the configuration of a single job.', {
  spec: { ...jobSpecSchema, description: 'Specification of the desired behavior of a job.' },
  status: { ...jobStatusSchema, description: 'Current status of a job.' },
});

/** batch/v1 CronJob. */
export const cronJobSchema = kindSchema('CronJob represents the configuration of a single cron job.', {
  spec: obj(
    'Specification of the desired behavior of a cron job, including the schedule.',
    {
      schedule: str('The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
      timeZone: str(
        'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
      ),
      startingDeadlineSeconds: int64(
        'Optional deadline in seconds for starting the job if it misses scheduled time for any reason.',
      ),
      concurrencyPolicy: str(
        'Specifies how to treat concurrent executions of a Job. Valid values are: "Allow" (default), "Forbid", "Replace".',
        { enum: ['Allow', 'Forbid', 'Replace'] },
      ),
      suspend: bool(
        'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions. Defaults to false.',
      ),
      jobTemplate: obj('Specifies the job that will be created when executing a CronJob.', {
        metadata: {
          ...objectMetaSchema,
          description: "Standard object's metadata of the jobs created from this template.",
        },
        spec: { ...jobSpecSchema, description: 'Specification of the desired behavior of the job.' },
      }),
      successfulJobsHistoryLimit: int32(
        'The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.',
      ),
      failedJobsHistoryLimit: int32(
        'The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.',
      ),
    },
    { required: ['schedule', 'jobTemplate'] },
  ),
  status: obj('Current status of a cron job.', {
    active: atomicList('A list of pointers to currently running jobs.', objectReferenceSchema),
    lastScheduleTime: time('Information when was the last time the job was successfully scheduled.'),
    lastSuccessfulTime: time('Information when was the last time the job successfully completed.'),
  }),
});
