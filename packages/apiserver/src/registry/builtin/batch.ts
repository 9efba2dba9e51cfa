/**
 * batch/v1 Job and CronJob, served as upstream serves them (schema, defaults, the Job's generated
 * selector, validation, `/status`, generation). No controller runs them: a Job never gets pods
 * and a CronJob never creates Jobs here.
 */
import type { ResourceDefinition } from '../resource.js';
import { defineResource } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import { generateJobSelector, jobLabels, setCronJobDefaults, setJobDefaults } from './defaults-batch.js';
import { withGeneration } from './generation.js';
import { validateCronJob, validateJobSpec, validateJobUpdate } from './validation/batch.js';

const statusSub = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;

/**
 * `jobs` (batch v1, namespaced) with `/status`: upstream's defaults, the controller-uid/job-name
 * labels (in the flavor's label domain) and selector generated from the uid (unless
 * `spec.manualSelector`), `status: {}` on create.
 */
export const jobs: ResourceDefinition = defineResource({
  group: 'batch',
  versions: ['v1'],
  resource: 'jobs',
  kind: 'Job',
  namespaced: true,
  categories: ['all'],
  subresources: [statusSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate(obj, ctx) {
        setJobDefaults(obj);
        generateJobSelector(obj, ctx.flavor);
      },
      prepareForUpdate: setJobDefaults,
      validate: (obj, ctx) =>
        validateJobSpec(obj.spec, 'spec', {
          template: false,
          uid: typeof obj.metadata?.uid === 'string' ? obj.metadata.uid : '',
          uidLabel: jobLabels(ctx.flavor).controllerUid,
        }),
      validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? [] : validateJobUpdate(obj, old)),
    }),
    { initialStatus: () => ({}) },
  ),
});

/** `cronjobs` (batch v1, and v1beta1 where served; namespaced, short name `cj`) with `/status`; the schedule is parsed as upstream's cron parser does. */
export const cronJobs: ResourceDefinition = defineResource({
  group: 'batch',
  // v1beta1 has v1's shape: conversion only rewrites apiVersion (spec doc 1 §9.4, removed in 1.25).
  versions: ['v1', 'v1beta1'],
  storageVersion: 'v1',
  lifecycle: {
    v1: { introduced: '1.21' },
    v1beta1: {
      introduced: '1.8',
      deprecated: '1.21',
      removed: '1.25',
      replacement: { group: 'batch', version: 'v1', kind: 'CronJob' },
    },
  },
  resource: 'cronjobs',
  kind: 'CronJob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  subresources: [statusSub],
  strategy: statusSubresourceStrategy(
    withGeneration({
      prepareForCreate: setCronJobDefaults,
      prepareForUpdate: setCronJobDefaults,
      validate: (obj) => validateCronJob(obj, true),
      validateUpdate: (obj, old, ctx) =>
        ctx.subresource === 'status'
          ? []
          : validateCronJob(obj, false, (old.spec as Record<string, unknown> | undefined)?.schedule),
    }),
    { initialStatus: () => ({}) },
  ),
});
