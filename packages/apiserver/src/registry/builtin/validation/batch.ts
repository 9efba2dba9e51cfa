/**
 * Upstream's batch/v1 validation (k8s.io/kubernetes pkg/apis/batch/validation) for the fields the
 * schema holds: counts not negative, Indexed needs completions, a selector matching the template
 * (and, when generated, selecting this Job's uid), restart policy OnFailure or Never, the update
 * rules (selector, template, completions, completion mode immutable), and the CronJob schedule,
 * time zone, history limits and name length.
 */
import { fieldErrors, type StatusCause } from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import { cronScheduleError, isKnownTimeZone } from './cron-schedule.js';
import { validatePodSpec } from './pod-spec.js';
import { goLabelSelector, selectorMatchesTemplate, validateLabelSelector } from './workload.js';

type Obj = Record<string, unknown>;

const nonNegative = (spec: Obj, path: string, fields: readonly string[]): StatusCause[] =>
  fields
    .filter((f) => typeof spec[f] === 'number' && (spec[f] as number) < 0)
    .map((f) => fieldErrors.invalid(`${path}.${f}`, spec[f], 'must be greater than or equal to 0'));

/**
 * A JobSpec at `path` (`spec`, or `spec.jobTemplate.spec` of a CronJob, where the selector is
 * optional). `uid` is the Job's own, for a generated selector that selects it under `uidLabel`
 * (the flavor's `batch.<domain>/controller-uid`).
 */
export function validateJobSpec(
  spec: unknown,
  path: string,
  opts: { template: boolean; uid?: string; uidLabel?: string },
): StatusCause[] {
  if (!isJsonObject(spec)) return [fieldErrors.required(path)];
  const causes = nonNegative(spec, path, [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'backoffLimitPerIndex',
    'maxFailedIndexes',
    'ttlSecondsAfterFinished',
  ]);
  if (spec.completionMode === 'Indexed') {
    if (spec.completions === undefined || spec.completions === null)
      causes.push(fieldErrors.required(`${path}.completions`, 'when completion mode is Indexed'));
    if (typeof spec.parallelism === 'number' && spec.parallelism > 100000)
      causes.push(
        fieldErrors.invalid(
          `${path}.parallelism`,
          spec.parallelism,
          'must be less than or equal to 100000 when completion mode is Indexed',
        ),
      );
  }
  const template = isJsonObject(spec.template) ? spec.template : undefined;
  const selector = spec.selector;
  if (!isJsonObject(selector)) {
    if (!opts.template) causes.push(fieldErrors.required(`${path}.selector`));
  } else {
    const selectorCauses = validateLabelSelector(selector, `${path}.selector`);
    causes.push(...selectorCauses);
    if (template && selectorCauses.length === 0)
      causes.push(...selectorMatchesTemplate(selector, template, `${path}.template`));
    const generated = spec.manualSelector !== true && opts.uid !== undefined;
    const uid =
      isJsonObject(selector.matchLabels) && opts.uidLabel !== undefined
        ? selector.matchLabels[opts.uidLabel]
        : undefined;
    if (generated && uid !== opts.uid)
      causes.push(
        fieldErrors.invalid(`${path}.selector`, goLabelSelector(selector), '`selector` not auto-generated'),
      );
  }
  if (!template) causes.push(fieldErrors.required(`${path}.template`));
  else {
    const podSpec = isJsonObject(template.spec) ? template.spec : undefined;
    causes.push(...validatePodSpec(podSpec, `${path}.template.spec`));
    const restart = podSpec?.restartPolicy;
    if (restart !== 'OnFailure' && restart !== 'Never')
      causes.push(
        fieldErrors.notSupported(`${path}.template.spec.restartPolicy`, restart ?? '', [
          'OnFailure',
          'Never',
        ]),
      );
  }
  return causes;
}

/** The scheduling fields a suspended, never-started Job may still change in its template. */
const mutableWhileSuspended = ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates'] as const;

function templateChangeAllowed(spec: Obj, old: Obj, oldStatus: unknown): boolean {
  const started =
    isJsonObject(oldStatus) && oldStatus.startTime !== undefined && oldStatus.startTime !== null;
  if (old.suspend !== true || started) return false;
  const strip = (t: unknown): unknown => {
    if (!isJsonObject(t)) return t;
    const podSpec = isJsonObject(t.spec) ? { ...t.spec } : t.spec;
    if (isJsonObject(podSpec)) for (const f of mutableWhileSuspended) delete podSpec[f];
    const meta = isJsonObject(t.metadata)
      ? { ...t.metadata, labels: undefined, annotations: undefined }
      : t.metadata;
    return { ...t, spec: podSpec, metadata: meta };
  };
  return jsonEqual(strip(spec.template), strip(old.template));
}

/** ValidateJobUpdate: the spec rules and the fields that never change (selector, template unless suspended, completions, completion mode, failure policies). */
export function validateJobUpdate(job: Obj, old: Obj): StatusCause[] {
  const spec = isJsonObject(job.spec) ? job.spec : {};
  const oldSpec = isJsonObject(old.spec) ? old.spec : {};
  const causes = validateJobSpec(job.spec, 'spec', { template: false });
  const immutable = (field: string, value: unknown) =>
    causes.push(fieldErrors.invalid(`spec.${field}`, value, 'field is immutable'));
  if (!jsonEqual(spec.selector, oldSpec.selector)) immutable('selector', goLabelSelector(spec.selector));
  if (!jsonEqual(spec.template, oldSpec.template) && !templateChangeAllowed(spec, oldSpec, old.status))
    immutable('template', spec.template);
  const elastic =
    spec.completionMode === 'Indexed' &&
    spec.completions === spec.parallelism &&
    oldSpec.completions === oldSpec.parallelism;
  if (!jsonEqual(spec.completions, oldSpec.completions) && !elastic)
    immutable('completions', spec.completions ?? null);
  for (const field of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy'])
    if (!jsonEqual(spec[field], oldSpec[field])) immutable(field, spec[field] ?? null);
  return causes;
}

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];

/** ValidateCronJobCreate/Update: name length (create), schedule, time zone, policy, limits, the job template. */
export function validateCronJob(cronJob: Obj, create: boolean, oldSchedule?: unknown): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = isJsonObject(cronJob.metadata) ? cronJob.metadata.name : undefined;
  if (create && typeof name === 'string' && name.length > 52)
    causes.push(fieldErrors.invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec = cronJob.spec;
  if (!isJsonObject(spec)) return [...causes, fieldErrors.required('spec')];
  const schedule = spec.schedule;
  if (typeof schedule !== 'string' || schedule === '') causes.push(fieldErrors.required('spec.schedule'));
  else {
    const err = cronScheduleError(schedule);
    if (err !== undefined) causes.push(fieldErrors.invalid('spec.schedule', schedule, err));
    // TZ in the schedule stays allowed on an update of a CronJob that already had it, as upstream.
    const hadTz = typeof oldSchedule === 'string' && oldSchedule.includes('TZ');
    if (schedule.includes('TZ') && spec.timeZone !== undefined && spec.timeZone !== null && hadTz)
      causes.push(
        fieldErrors.invalid(
          'spec.schedule',
          schedule,
          'cannot use both timeZone field and TZ or CRON_TZ in schedule',
        ),
      );
    else if (schedule.includes('TZ') && !hadTz)
      causes.push(
        fieldErrors.invalid(
          'spec.schedule',
          schedule,
          'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
        ),
      );
  }
  const tz = spec.timeZone;
  if (typeof tz === 'string') {
    if (tz === '')
      causes.push(fieldErrors.invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string'));
    else if (tz === 'Local' || !isKnownTimeZone(tz) || tz.includes(' '))
      causes.push(
        fieldErrors.invalid(
          'spec.timeZone',
          tz,
          tz === 'Local'
            ? 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'
            : `unknown time zone ${tz}`,
        ),
      );
  }
  if (spec.concurrencyPolicy !== undefined && !concurrencyPolicies.includes(spec.concurrencyPolicy as string))
    causes.push(
      fieldErrors.notSupported('spec.concurrencyPolicy', spec.concurrencyPolicy, concurrencyPolicies),
    );
  causes.push(
    ...nonNegative(spec, 'spec', [
      'startingDeadlineSeconds',
      'successfulJobsHistoryLimit',
      'failedJobsHistoryLimit',
    ]),
  );
  const jobTemplate = isJsonObject(spec.jobTemplate) ? spec.jobTemplate : undefined;
  if (!jobTemplate) causes.push(fieldErrors.required('spec.jobTemplate'));
  else causes.push(...validateJobSpec(jobTemplate.spec, 'spec.jobTemplate.spec', { template: true }));
  return causes;
}
