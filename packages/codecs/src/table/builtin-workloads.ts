/**
 * Column sets of the controller kinds besides Deployment (ReplicaSet, ReplicationController,
 * StatefulSet, DaemonSet, Job, CronJob), as upstream's printers (pkg/printers/internalversion)
 * of Kubernetes 1.32 print them.
 */
import {
  ageColumn,
  ageOf,
  arr,
  col,
  convertor,
  formatLabels,
  formatSelector,
  nameOf,
  num,
  type Obj,
  obj,
  str,
} from './builtin-cells.js';
import { humanDuration, translateTimestampSince } from './human-duration.js';
import { nameColumn } from './table.js';
import type { TableCellContext, TableConvertor } from './types.js';

const containersColumn = col('Containers', 'Names of each container in the template.', 'string', 1);
const imagesColumn = col('Images', 'Images referenced by each container in the template.', 'string', 1);
/** Age, then the wide Containers, Images and Selector columns most controller printers end with. */
const ageAndTemplateColumns = (selectorDescription: string) => [
  ageColumn,
  containersColumn,
  imagesColumn,
  col('Selector', selectorDescription, 'string', 1),
];

/** The template's container names and images, comma-separated (upstream `layoutContainerCells`). */
function containerCells(template: unknown): [string, string] {
  const containers = arr(obj(obj(template).spec).containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** ReplicaSet and ReplicationController cells: Name, Desired, Current, Ready, Age; wide: Containers, Images, Selector. */
function replicaCounter(selector: (spec: Obj) => string): (o: Obj, ctx: TableCellContext) => unknown[] {
  return (o, ctx) => {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [
      nameOf(o),
      num(spec.replicas),
      num(status.replicas),
      num(status.readyReplicas),
      ageOf(o, ctx),
      ...containerCells(spec.template),
      selector(spec),
    ];
  };
}

function replicaColumns(selectorDescription: string) {
  return [
    nameColumn,
    col('Desired', 'Replicas is the number of desired replicas.', 'integer'),
    col('Current', 'Replicas is the most recently observed number of replicas.', 'integer'),
    col('Ready', 'The number of ready replicas for this replica set.', 'integer'),
    ...ageAndTemplateColumns(selectorDescription),
  ];
}

const rsSelectorDoc =
  "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels.";

/** ReplicaSets (apps/v1): Name, Desired, Current, Ready, Age; wide: Containers, Images, Selector. */
export const replicaSetTable: TableConvertor = convertor(
  replicaColumns(rsSelectorDoc),
  replicaCounter((spec) => formatSelector(spec.selector)),
);

const rcSelectorDoc =
  'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template.';

/** ReplicationControllers (core/v1): as ReplicaSets, the selector being a plain label map. */
export const replicationControllerTable: TableConvertor = convertor(
  replicaColumns(rcSelectorDoc),
  replicaCounter((spec) => formatLabels(spec.selector)),
);

/** StatefulSets (apps/v1): Name, Ready (`ready/desired`), Age; wide: Containers, Images. */
export const statefulSetTable: TableConvertor = convertor(
  [nameColumn, col('Ready', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
  (o, ctx) => {
    const spec = obj(o.spec);
    return [
      nameOf(o),
      `${num(obj(o.status).readyReplicas)}/${num(spec.replicas)}`,
      ageOf(o, ctx),
      ...containerCells(spec.template),
    ];
  },
);

/** DaemonSets (apps/v1): Name, Desired, Current, Ready, Up-to-date, Available, Node Selector, Age; wide: Containers, Images, Selector. */
export const daemonSetTable: TableConvertor = convertor(
  [
    nameColumn,
    col(
      'Desired',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).',
      'integer',
    ),
    col(
      'Current',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
      'integer',
    ),
    col(
      'Ready',
      'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
      'integer',
    ),
    col('Up-to-date', 'The total number of nodes that are running updated daemon pod', 'integer'),
    col(
      'Available',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      'integer',
    ),
    col(
      'Node Selector',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.",
    ),
    ...ageAndTemplateColumns('A label query over pods that are managed by the daemon set.'),
  ],
  (o, ctx) => {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [
      nameOf(o),
      num(status.desiredNumberScheduled),
      num(status.currentNumberScheduled),
      num(status.numberReady),
      num(status.updatedNumberScheduled),
      num(status.numberAvailable),
      formatLabels(obj(obj(spec.template).spec).nodeSelector),
      ageOf(o, ctx),
      ...containerCells(spec.template),
      formatSelector(spec.selector),
    ];
  },
);

const hasCondition = (o: Obj, type: string): boolean =>
  arr(obj(o.status).conditions).some((c) => c.type === type && c.status === 'True');

/** Upstream's job status word: Complete, Failed, Terminating, Suspended, FailureTarget or Running. */
function jobStatus(job: Obj): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (obj(job.metadata).deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** `succeeded/completions`, or `succeeded/1 of parallelism` for a work queue. */
function jobCompletions(job: Obj): string {
  const spec = obj(job.spec);
  const succeeded = num(obj(job.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: Obj, now: number): string {
  const status = obj(job.status);
  const start = Date.parse(str(status.startTime));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(str(status.completionTime));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

/** Jobs (batch/v1): Name, Status, Completions, Duration, Age; wide: Containers, Images, Selector. */
export const jobTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Status', 'Status of the job.'),
    col('Completions', 'The completion status of the job as <succeeded>/<desired>'),
    col('Duration', 'Time required to complete the job.'),
    ...ageAndTemplateColumns('A label query over pods that should match the pod count.'),
  ],
  (o, ctx) => {
    const spec = obj(o.spec);
    return [
      nameOf(o),
      jobStatus(o),
      jobCompletions(o),
      jobDuration(o, ctx.now),
      ageOf(o, ctx),
      ...containerCells(spec.template),
      formatSelector(spec.selector),
    ];
  },
);

/** CronJobs (batch/v1): Name, Schedule, Timezone, Suspend, Active, Last Schedule, Age; wide: Containers, Images, Selector. */
export const cronJobTable: TableConvertor = convertor(
  [
    nameColumn,
    col('Schedule', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col(
      'Timezone',
      'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
    ),
    col(
      'Suspend',
      'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.',
      'boolean',
    ),
    col('Active', 'A list of pointers to currently running jobs.', 'integer'),
    col('Last Schedule', 'Information when was the last time the job was successfully scheduled.'),
    ...ageAndTemplateColumns('A label query over pods that should match the pod count.'),
  ],
  (o, ctx) => {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    const last = status.lastScheduleTime;
    return [
      nameOf(o),
      str(spec.schedule),
      str(spec.timeZone) || '<none>',
      // upstream's printBoolPtr: a string, not a JSON bool
      typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>',
      arr(status.active).length,
      last ? translateTimestampSince(last, ctx.now) : '<none>',
      ageOf(o, ctx),
      ...containerCells(jobSpec.template),
      jobSpec.selector ? formatSelector(jobSpec.selector) : '<none>',
    ];
  },
);
