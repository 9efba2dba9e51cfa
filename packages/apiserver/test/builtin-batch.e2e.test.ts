import { kubectl, kubectlAvailable, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCauses } from './helpers/causes.js';
import { flavorNames, flavorUnderTest } from './helpers/flavors.js';

/**
 * batch/v1 Job and CronJob as upstream serves them (issue 19 item 7): defaults, the Job's selector
 * generated from its uid, validation with upstream's fields and messages, the cron schedule, and
 * stock kubectl's `create job`, `create cronjob`, `create job --from=cronjob/…` (kubernetes flavor).
 * No controller runs them. The group is `batch` under both flavors (upstream's legacy-named groups);
 * the Job labels are `batch.<label domain>/…`.
 */
describe.each(flavorNames)('batch/v1 Job and CronJob (%s flavor)', (flavorName) => {
  const { labelDomain, kubectl: withKubectl } = flavorUnderTest(flavorName);
  const uidLabel = `batch.${labelDomain}/controller-uid`;
  let api: TestServer;
  const jobsPath = '/apis/batch/v1/namespaces/default/jobs';
  const cronPath = '/apis/batch/v1/namespaces/default/cronjobs';
  const merge = { 'content-type': 'application/merge-patch+json' };

  beforeAll(async () => {
    api = await startTestServer({ flavor: flavorName });
  });
  afterAll(async () => {
    await api.stop();
  });

  const podTemplate = (restartPolicy?: string) => ({
    spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'c', image: 'busybox' }] },
  });
  const job = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec,
  });
  const cronJob = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec,
  });

  it('a Job gets upstream defaults, a generated selector and labels, status {} and generation 1', async () => {
    const r = await api.request('POST', jobsPath, { body: job('pi', { template: podTemplate('Never') }) });
    expect(r.status).toBe(201);
    const created = r.json as { metadata: any; spec: any; status: unknown };
    const uid = created.metadata.uid as string;
    expect(created.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { [uidLabel]: uid } },
    });
    expect(created.spec.manualSelector).toBeUndefined();
    expect(created.spec.template.metadata.labels).toEqual({
      [uidLabel]: uid,
      [`batch.${labelDomain}/job-name`]: 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    expect(created.spec.template.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' });
    expect(created.status).toEqual({});
    expect(created.metadata.generation).toBe(1);

    const list = await api.request('GET', jobsPath);
    expect((list.json as { kind: string }).kind).toBe('JobList');

    // parallelism without completions leaves completions unset; backoffLimitPerIndex makes the limit MaxInt32.
    const wq = await api.request('POST', jobsPath, {
      body: job('wq', {
        parallelism: 3,
        completionMode: 'Indexed',
        completions: 3,
        backoffLimitPerIndex: 1,
        template: podTemplate('Never'),
      }),
    });
    expect(wq.status).toBe(201);
    expect((wq.json as { spec: any }).spec).toMatchObject({
      parallelism: 3,
      completions: 3,
      backoffLimit: 2147483647,
    });
  });

  it('Job updates: the template and selector are immutable, status is written through /status', async () => {
    await api.request('POST', jobsPath, { body: job('imm', { template: podTemplate('OnFailure') }) });
    const image = await api.request('PATCH', `${jobsPath}/imm`, {
      body: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } } } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    expect(image.status).toBe(422);
    expectCauses(image.json, [['spec.template', 'field is immutable']]);
    const selector = await api.request('PATCH', `${jobsPath}/imm`, {
      body: { spec: { selector: { matchLabels: { other: 'x' } } } },
      headers: merge,
    });
    expect(selector.status).toBe(422);
    expectCauses(selector.json, [['spec.selector', 'field is immutable']]);
    const ttl = await api.request('PATCH', `${jobsPath}/imm`, {
      body: { spec: { ttlSecondsAfterFinished: 60 } },
      headers: merge,
    });
    expect(ttl.status).toBe(200);
    expect((ttl.json as { metadata: { generation: number } }).metadata.generation).toBe(2);
    const status = await api.request('PATCH', `${jobsPath}/imm/status`, {
      body: { status: { active: 1, startTime: '2024-01-01T00:00:00Z' } },
      headers: merge,
    });
    expect(status.status).toBe(200);
    expect((status.json as { status: unknown }).status).toEqual({
      active: 1,
      startTime: '2024-01-01T00:00:00Z',
    });
    expect((await api.request('DELETE', `${jobsPath}/imm`)).status).toBe(200);
  });

  it.each([
    [
      'no restartPolicy (defaults to Always)',
      { template: podTemplate() },
      [
        [
          'spec.template.spec.restartPolicy',
          'Unsupported value: "Always": supported values: "OnFailure", "Never"',
        ],
      ],
    ],
    [
      'negative counts',
      { parallelism: -1, backoffLimit: -2, template: podTemplate('Never') },
      [
        ['spec.parallelism', 'Invalid value: -1: must be greater than or equal to 0'],
        ['spec.backoffLimit', 'Invalid value: -2: must be greater than or equal to 0'],
      ],
    ],
    [
      'Indexed without completions',
      { completionMode: 'Indexed', parallelism: 2, template: podTemplate('Never') },
      [['spec.completions', 'Required value: when completion mode is Indexed']],
    ],
    [
      'a manual selector that does not match',
      {
        manualSelector: true,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'c' } }, ...podTemplate('Never') },
      },
      [['spec.template.metadata.labels', '`selector` does not match template `labels`']],
    ],
    [
      'a selector naming another uid',
      {
        selector: { matchLabels: { [uidLabel]: 'someone-else' } },
        template: podTemplate('Never'),
      },
      [['spec.selector', '`selector` not auto-generated']],
    ],
    // The generated labels give the template metadata; its pod spec is then missing.
    ['no template', {}, [['spec.template.spec', 'Required value']]],
  ])('a Job with %s is a 422 naming the field', async (_name, spec, expected) => {
    const r = await api.request('POST', jobsPath, { body: job('bad', spec) });
    expect(r.status).toBe(422);
    expectCauses(r.json, expected as [string, string][]);
  });

  it('a CronJob gets upstream defaults; its schedule is parsed as upstream parses it', async () => {
    const r = await api.request('POST', cronPath, {
      body: cronJob('nightly', {
        schedule: '@hourly',
        jobTemplate: { spec: { template: podTemplate('OnFailure') } },
      }),
    });
    expect(r.status).toBe(201);
    const spec = (r.json as { spec: any }).spec;
    expect(spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    // The job template gets the pod template's defaults but not the Job's own.
    expect(spec.jobTemplate.spec.backoffLimit).toBeUndefined();
    expect(spec.jobTemplate.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
    const suspend = await api.request('PATCH', `${cronPath}/nightly`, {
      body: { spec: { suspend: true, schedule: '*/5 * * * *' } },
      headers: merge,
    });
    expect(suspend.status).toBe(200);
  });

  it.each([
    [
      'no schedule',
      { jobTemplate: { spec: { template: podTemplate('Never') } } },
      [['spec.schedule', 'Required value']],
    ],
    [
      'a four-field schedule',
      { schedule: '* * * *', jobTemplate: { spec: { template: podTemplate('Never') } } },
      [['spec.schedule', 'Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']],
    ],
    [
      'a minute out of range',
      { schedule: '61 * * * *', jobTemplate: { spec: { template: podTemplate('Never') } } },
      [['spec.schedule', 'Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    ],
    [
      'an unknown descriptor',
      { schedule: '@sometimes', jobTemplate: { spec: { template: podTemplate('Never') } } },
      [['spec.schedule', 'unrecognized descriptor: @sometimes']],
    ],
    [
      'TZ in the schedule',
      { schedule: 'TZ=UTC 0 0 * * *', jobTemplate: { spec: { template: podTemplate('Never') } } },
      [['spec.schedule', 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead']],
    ],
    [
      'an unknown time zone',
      {
        schedule: '0 0 * * *',
        timeZone: 'Mars/Olympus',
        jobTemplate: { spec: { template: podTemplate('Never') } },
      },
      [['spec.timeZone', 'unknown time zone Mars/Olympus']],
    ],
    [
      'a job template restarting Always',
      { schedule: '0 0 * * *', jobTemplate: { spec: { template: podTemplate('Always') } } },
      [['spec.jobTemplate.spec.template.spec.restartPolicy', 'Unsupported value: "Always"']],
    ],
    [
      'negative history limits',
      {
        schedule: '0 0 * * *',
        successfulJobsHistoryLimit: -1,
        jobTemplate: { spec: { template: podTemplate('Never') } },
      },
      [['spec.successfulJobsHistoryLimit', 'must be greater than or equal to 0']],
    ],
  ])('a CronJob with %s is a 422 naming the field', async (_name, spec, expected) => {
    const r = await api.request('POST', cronPath, { body: cronJob('bad', spec) });
    expect(r.status).toBe(422);
    expectCauses(r.json, expected as [string, string][]);
  });

  it.each([
    ['a spec that is a string', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'h1' }, spec: 'x' }],
    [
      'a template that is a list',
      { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'h2' }, spec: { template: [1] } },
    ],
    [
      'prototype keys in labels and selector',
      JSON.parse(
        '{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"h3"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"__proto__":"x"}},"template":{"metadata":{"labels":{"constructor":"y"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}',
      ),
    ],
    [
      'a schedule that is a number',
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'h4' },
        spec: { schedule: 5, jobTemplate: {} },
      },
    ],
  ])('hostile input (%s) is a 4xx Status, never a crash', async (_name, body) => {
    const path = (body as { kind: string }).kind === 'Job' ? jobsPath : cronPath;
    const r = await api.request('POST', path, { body });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect((r.json as { kind: string }).kind).toBe('Status');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('a CronJob name over 52 characters is refused', async () => {
    const r = await api.request('POST', cronPath, {
      body: cronJob('x'.repeat(53), {
        schedule: '@daily',
        jobTemplate: { spec: { template: podTemplate('Never') } },
      }),
    });
    expect(r.status).toBe(422);
    expectCauses(r.json, [['metadata.name', 'must be no more than 52 characters']]);
  });

  describe.skipIf(!withKubectl || !kubectlAvailable())('stock kubectl (kubernetes flavor only)', () => {
    const k = (...args: string[]) => kubectl(args, { kubeconfig: api.kubeconfigPath });

    it('create job, create cronjob, create job --from=cronjob, get, describe, explain', async () => {
      const createJob = await k('create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi');
      expect(createJob.code, createJob.stderr).toBe(0);
      expect(createJob.stdout).toBe('job.batch/hello created\n');
      const createCron = await k('create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *');
      expect(createCron.code, createCron.stderr).toBe(0);
      expect(createCron.stdout).toBe('cronjob.batch/tick created\n');
      const badCron = await k('create', 'cronjob', 'tock', '--image=busybox', '--schedule=* * *');
      expect(badCron.code).not.toBe(0);
      expect(badCron.stderr).toContain(
        'error: failed to create cronjob: CronJob "tock" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
      );
      const fromCron = await k('create', 'job', 'manual', '--from=cronjob/tick');
      expect(fromCron.code, fromCron.stderr).toBe(0);
      expect(fromCron.stdout).toBe('job.batch/manual created\n');
      const manual = JSON.parse((await k('get', 'job', 'manual', '-o', 'json')).stdout);
      expect(manual.metadata.annotations['cronjob.kubernetes.io/instantiate']).toBe('manual');
      expect(manual.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'tick' });

      const jobs = await k('get', 'jobs');
      expect(jobs.code, jobs.stderr).toBe(0);
      expect(jobs.stdout).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\n/);
      expect(jobs.stdout).toMatch(/\nhello\s+Running\s+0\/1\s+\S+\n/);
      const cron = await k('get', 'cj', 'tick');
      expect(cron.stdout).toMatch(/^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\n/);
      expect(cron.stdout).toMatch(/\ntick\s+\*\/1 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+\n/);
      const describe = await k('describe', 'job', 'hello');
      expect(describe.code, describe.stderr).toBe(0);
      expect(describe.stdout).toMatch(/Completions:\s+1\n/);
      const explain = await k('explain', 'cronjob.spec.schedule');
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain('KIND:       CronJob');
      expect(explain.stdout).toContain('The schedule in Cron format');
    });
  });
});
