import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { decodeProtobuf, encodeProtobuf } from './protobuf.js';

/** batch/v1 and networking/v1 kinds round-trip, Go pointers keep their zero values, Ingress rules are inlined. */
describe('Protobuf of Job, CronJob and Ingress', () => {
  const podTemplate = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } };

  it('a Job keeps pointer zeros (backoffLimit 0, suspend false, completions 0)', () => {
    const job: ApiObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'default' },
      spec: {
        parallelism: 0,
        completions: 0,
        backoffLimit: 0,
        suspend: false,
        manualSelector: false,
        completionMode: 'Indexed',
        podFailurePolicy: {
          rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 42] } }],
        },
        template: podTemplate,
      },
      status: { active: 1, ready: 0, terminating: 0, startTime: '2024-01-02T03:04:05Z' },
    };
    expect(decodeProtobuf(encodeProtobuf(job, kubernetesFlavor), kubernetesFlavor)).toEqual(job);
  });

  it('a CronJob round-trips with its job template and history limits of 0', () => {
    const cronJob: ApiObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c', namespace: 'default' },
      spec: {
        schedule: '*/5 * * * *',
        timeZone: 'Etc/UTC',
        suspend: false,
        successfulJobsHistoryLimit: 0,
        failedJobsHistoryLimit: 0,
        concurrencyPolicy: 'Forbid',
        jobTemplate: { metadata: { labels: { a: 'b' } }, spec: { backoffLimit: 0, template: podTemplate } },
      },
      status: { active: [{ kind: 'Job', name: 'c-1', namespace: 'default' }] },
    };
    expect(decodeProtobuf(encodeProtobuf(cronJob, kubernetesFlavor), kubernetesFlavor)).toEqual(cronJob);
  });

  it('an Ingress round-trips under either flavor, its rules carrying http inline', () => {
    for (const flavor of [kubernetesFlavor, orchFlavor]) {
      const ingress: ApiObject = {
        apiVersion: `${flavor.group('networking')}/v1`,
        kind: 'Ingress',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          ingressClassName: '',
          tls: [{ hosts: ['foo.com'], secretName: 'cert' }],
          rules: [
            {
              host: 'foo.com',
              http: {
                paths: [
                  {
                    path: '/bar',
                    pathType: 'Exact',
                    backend: { service: { name: 'svc1', port: { number: 8080 } } },
                  },
                ],
              },
            },
          ],
        },
        status: { loadBalancer: { ingress: [{ ip: '10.0.0.9' }] } },
      };
      expect(decodeProtobuf(encodeProtobuf(ingress, flavor), flavor)).toEqual(ingress);
    }
  });
});
