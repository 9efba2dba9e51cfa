/**
 * Upstream's batch/v1 `SetDefaults_Job` and `SetDefaults_CronJob` (k8s.io/kubernetes
 * pkg/apis/batch/v1/defaults.go) and the Job strategy's selector generation
 * (pkg/registry/batch/job/strategy.go `generateSelector`).
 */
import type { Flavor } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { wellKnownLabelDomain } from '../../node/node-labels.js';
import { setPodSpecDefaults } from './defaults.js';

type Obj = Record<string, unknown>;

const unset = (v: unknown): boolean => v === undefined || v === null;
const maxInt32 = 2147483647;

/** The labels upstream's Job strategy puts on a Job's pods and selects them by. */
export interface JobLabels {
  /** `batch.kubernetes.io/controller-uid` / `batch.orch.io/controller-uid`. */
  readonly controllerUid: string;
  /** `controller-uid` (no domain in either flavor). */
  readonly legacyControllerUid: string;
  /** `batch.kubernetes.io/job-name` / `batch.orch.io/job-name`. */
  readonly jobName: string;
  /** `job-name` (no domain in either flavor). */
  readonly legacyJobName: string;
}

/** The Job labels in the flavor's label domain (`batch.<domain>/…`, beside the domain-less legacy ones). */
export function jobLabels(flavor: Flavor): JobLabels {
  const batch = `batch.${wellKnownLabelDomain(flavor)}`;
  return {
    controllerUid: `${batch}/controller-uid`,
    legacyControllerUid: 'controller-uid',
    jobName: `${batch}/job-name`,
    legacyJobName: 'job-name',
  };
}

/** A JobSpec's defaults that also apply inside a CronJob's template (only the pod template's). */
function setJobTemplateDefaults(spec: Obj): void {
  if (isJsonObject(spec.template)) setPodSpecDefaults(spec.template.spec);
}

/** SetDefaults_Job: completions/parallelism 1, backoffLimit 6, NonIndexed, not suspended, the job's labels from the template. */
export function setJobDefaults(job: Obj): void {
  const spec = job.spec;
  if (!isJsonObject(spec)) return;
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (unset(spec.parallelism)) spec.parallelism = 1;
  if (unset(spec.backoffLimit)) spec.backoffLimit = unset(spec.backoffLimitPerIndex) ? 6 : maxInt32;
  if (unset(spec.completionMode)) spec.completionMode = 'NonIndexed';
  if (unset(spec.suspend)) spec.suspend = false;
  if (isJsonObject(spec.podFailurePolicy)) {
    const rules = Array.isArray(spec.podFailurePolicy.rules) ? spec.podFailurePolicy.rules : [];
    for (const rule of rules.filter(isJsonObject))
      for (const pattern of (Array.isArray(rule.onPodConditions) ? rule.onPodConditions : []).filter(
        isJsonObject,
      ))
        if (unset(pattern.status)) pattern.status = 'True';
  }
  if (unset(spec.podReplacementPolicy))
    spec.podReplacementPolicy = isJsonObject(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  setJobTemplateDefaults(spec);
  const metadata: Obj = isJsonObject(job.metadata) ? job.metadata : {};
  const templateLabels =
    isJsonObject(spec.template) && isJsonObject(spec.template.metadata)
      ? spec.template.metadata.labels
      : undefined;
  const labels = metadata.labels;
  if (
    (!isJsonObject(labels) || Object.keys(labels).length === 0) &&
    isJsonObject(templateLabels) &&
    Object.keys(templateLabels).length > 0
  ) {
    metadata.labels = { ...templateLabels };
    job.metadata = metadata;
  }
}

/**
 * The Job strategy's `generateSelector` (unless `spec.manualSelector` is true): the pod template
 * gets the controller-uid and job-name labels (both spellings) and the selector selects
 * `batch.<label domain>/controller-uid=<uid>` (added to what the client gave; validation refuses a
 * different uid). Needs the uid, so runs after it is assigned.
 */
export function generateJobSelector(job: Obj, flavor: Flavor): void {
  const labelNames = jobLabels(flavor);
  const spec = job.spec;
  if (!isJsonObject(spec) || spec.manualSelector === true) return;
  const metadata = isJsonObject(job.metadata) ? job.metadata : {};
  const uid = typeof metadata.uid === 'string' ? metadata.uid : '';
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const template: Obj = isJsonObject(spec.template) ? spec.template : {};
  spec.template = template;
  const templateMeta: Obj = isJsonObject(template.metadata) ? template.metadata : {};
  template.metadata = templateMeta;
  const labels: Obj = isJsonObject(templateMeta.labels) ? templateMeta.labels : {};
  templateMeta.labels = labels;
  for (const [key, value] of [
    [labelNames.legacyControllerUid, uid],
    [labelNames.controllerUid, uid],
    [labelNames.legacyJobName, name],
    [labelNames.jobName, name],
  ] as const)
    if (!Object.hasOwn(labels, key)) labels[key] = value;
  const selector: Obj = isJsonObject(spec.selector) ? spec.selector : {};
  spec.selector = selector;
  const matchLabels: Obj = isJsonObject(selector.matchLabels) ? selector.matchLabels : {};
  selector.matchLabels = matchLabels;
  if (!Object.hasOwn(matchLabels, labelNames.controllerUid)) matchLabels[labelNames.controllerUid] = uid;
}

/** SetDefaults_CronJob: Allow, not suspended, 3 successful and 1 failed job kept; the job template's pod defaults. */
export function setCronJobDefaults(cronJob: Obj): void {
  const spec = cronJob.spec;
  if (!isJsonObject(spec)) return;
  if (unset(spec.concurrencyPolicy) || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
  if (unset(spec.suspend)) spec.suspend = false;
  if (unset(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
  if (unset(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
  if (isJsonObject(spec.jobTemplate) && isJsonObject(spec.jobTemplate.spec))
    setJobTemplateDefaults(spec.jobTemplate.spec);
}
