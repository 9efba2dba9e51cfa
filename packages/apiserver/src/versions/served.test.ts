import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { horizontalPodAutoscalers } from '../registry/builtin/autoscaling.js';
import { cronJobs, jobs } from '../registry/builtin/batch.js';
import { defineResource, type ResourceDefinition } from '../registry/resource.js';
import { deprecationOf } from './deprecation.js';
import { parseRelease, stabilityOf, validateEmulatedRelease } from './release.js';
import { removedApiMessage } from './removed-apis.js';
import { parseRuntimeConfig } from './runtime-config.js';
import { servedByDefault, servedResources } from './served.js';

const r = (t: string) => {
  const v = parseRelease(t);
  if (!v) throw new Error(t);
  return v;
};
const alphaThing = defineResource({
  group: 'example.dev',
  versions: ['v1', 'v1beta1', 'v1alpha1'],
  lifecycle: { v1beta1: { introduced: '1.25' } },
  resource: 'things',
  kind: 'Thing',
  namespaced: true,
});
const builtins: ResourceDefinition[] = [jobs, cronJobs, horizontalPodAutoscalers(orchFlavor), alphaThing];

function served(runtimeConfig = '', release = '1.32', extra: ResourceDefinition[] = []) {
  const defs = servedResources(builtins, extra, {
    runtimeConfig: parseRuntimeConfig(runtimeConfig),
    release: r(release),
    flavor: orchFlavor,
  });
  return Object.fromEntries(defs.map((d) => [`${d.group}/${d.resource}`, d.versions.join(',')]));
}

describe('stability levels (spec doc 1 §9.1)', () => {
  it.each([
    ['v1', 'stable'],
    ['v2', 'stable'],
    ['v1beta1', 'beta'],
    ['v2beta3', 'beta'],
    ['v1alpha1', 'alpha'],
    ['custom', 'stable'],
  ])('%s is %s', (v, level) => expect(stabilityOf(v)).toBe(level));

  it('alpha is off, stable on, beta on only when introduced before 1.22', () => {
    expect(servedByDefault('v1alpha1', undefined, r('1.32'))).toBe(false);
    expect(servedByDefault('v1', undefined, r('1.32'))).toBe(true);
    expect(servedByDefault('v1beta1', { introduced: '1.21' }, r('1.32'))).toBe(true);
    expect(servedByDefault('v1beta1', { introduced: '1.22' }, r('1.32'))).toBe(false);
    expect(servedByDefault('v1beta1', undefined, r('1.32'))).toBe(false);
  });

  it('a version removed at the emulated release is off; before it, on with the beta rule', () => {
    expect(servedByDefault('v1beta1', cronJobs.lifecycle?.v1beta1, r('1.25'))).toBe(false);
    expect(servedByDefault('v1beta1', cronJobs.lifecycle?.v1beta1, r('1.24'))).toBe(true);
  });
});

describe('served versions at the emulated release (spec doc 1 §9.3–9.4)', () => {
  it('1.32 serves HPA v2 and v1 and CronJob v1 only, and no alpha or late beta', () => {
    expect(served()).toEqual({
      'batch/jobs': 'v1',
      'batch/cronjobs': 'v1',
      'autoscaling/horizontalpodautoscalers': 'v2,v1',
      'example.dev/things': 'v1',
    });
  });
  it('1.24 serves CronJob v1beta1 and HPA v2beta2 beside the stable versions (v2beta1 removed in 1.25 still on)', () => {
    const s = served('', '1.24');
    expect(s['batch/cronjobs']).toBe('v1,v1beta1');
    expect(s['autoscaling/horizontalpodautoscalers']).toBe('v2,v1,v2beta2,v2beta1');
    expect(s['example.dev/things']).toBe('v1');
  });
  it('1.20 does not serve what was introduced later (HPA v2, CronJob v1)', () => {
    const s = served('', '1.20');
    expect(s['batch/cronjobs']).toBe('v1beta1');
    expect(s['autoscaling/horizontalpodautoscalers']).toBe('v1,v2beta2,v2beta1');
  });
  it('the storage version is kept when it is not served', () => {
    const defs = servedResources(builtins, [], { runtimeConfig: [], release: r('1.20'), flavor: orchFlavor });
    expect(defs.find((d) => d.resource === 'cronjobs')?.storageVersion).toBe('v1');
  });
  it('rejects releases outside [1.16, 1.32] and malformed ones', () => {
    expect(() => validateEmulatedRelease('1.33')).toThrow(
      'emulated release 1.33 is not between [1.16, 1.32]',
    );
    expect(() => validateEmulatedRelease('1.15')).toThrow('is not between');
    expect(() => validateEmulatedRelease('one')).toThrow('invalid release "one"');
    expect(validateEmulatedRelease('v1.25')).toEqual({ major: 1, minor: 25 });
  });
});

describe('--runtime-config (spec doc 1 §9.2)', () => {
  it('a missing value means true; a removed version comes back only when named', () => {
    expect(served('autoscaling/v2beta2')['autoscaling/horizontalpodautoscalers']).toBe('v2,v1,v2beta2');
    expect(served('api/all=true')['autoscaling/horizontalpodautoscalers']).toBe('v2,v1');
    expect(served('api/beta')['autoscaling/horizontalpodautoscalers']).toBe('v2,v1');
  });
  it('api/alpha and api/beta switch levels; api/all everything; later keys win', () => {
    expect(served('api/alpha=true')['example.dev/things']).toBe('v1,v1alpha1');
    expect(served('api/beta=true')['example.dev/things']).toBe('v1,v1beta1');
    expect(served('api/all=true')['example.dev/things']).toBe('v1,v1beta1,v1alpha1');
    expect(served('api/all=false,batch/v1=true')).toEqual({ 'batch/jobs': 'v1', 'batch/cronjobs': 'v1' });
    expect(served('api/ga=false,example.dev/v1alpha1')).toEqual({ 'example.dev/things': 'v1alpha1' });
    expect(served('batch/v1=false,batch/v1=true')['batch/jobs']).toBe('v1');
  });
  it('a resource key switches one resource of a group version', () => {
    expect(served('batch/v1/cronjobs=false')).toMatchObject({ 'batch/jobs': 'v1' });
    expect(served('batch/v1/cronjobs=false')['batch/cronjobs']).toBeUndefined();
    expect(served('batch/v1=false,batch/v1/jobs=true')['batch/jobs']).toBe('v1');
    expect(served('batch/v1=false,batch/v1/jobs=true')['batch/cronjobs']).toBeUndefined();
  });
  it('rehearses a removal: the stable version off leaves only the storage version record', () => {
    const defs = servedResources(builtins, [], {
      runtimeConfig: parseRuntimeConfig('autoscaling/v2=false,autoscaling/v1=false,autoscaling/v2beta2=true'),
      release: r('1.32'),
      flavor: orchFlavor,
    });
    const hpa = defs.find((d) => d.resource === 'horizontalpodautoscalers');
    expect(hpa?.versions).toEqual(['v2beta2']);
    expect(hpa?.storageVersion).toBe('v2');
  });
  it('the core group is api/v1; the embedder’s own resources are served as declared unless named', () => {
    const cm = defineResource({
      group: '',
      versions: ['v1'],
      resource: 'configmaps',
      kind: 'ConfigMap',
      namespaced: true,
    });
    expect(served('', '1.32', [cm])['/configmaps']).toBe('v1');
    expect(served('api/v1=false', '1.32', [cm])['/configmaps']).toBeUndefined();
    expect(served('api/v1/configmaps=false', '1.32', [cm])['/configmaps']).toBeUndefined();
  });
  it.each([
    ['batch', 'invalid key "batch": must be api/all'],
    ['a/b/c/d', 'invalid key "a/b/c/d"'],
    ['batch//jobs', 'invalid key "batch//jobs"'],
    ['api/v2', 'invalid key "api/v2"'],
    ['api/legacy', 'invalid key api/legacy'],
    [
      'batch/v1=maybe',
      'invalid value of batch/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
  ])('parse error: %s', (text, message) => {
    expect(() => parseRuntimeConfig(text)).toThrow(message);
  });
  it.each([
    [
      'unknown.dev/v1',
      'invalid key unknown.dev/v1: group version unknown.dev/v1 is not served by this server',
    ],
    ['batch/v2', 'group version batch/v2 is not served'],
    ['batch/v1/widgets', 'invalid key batch/v1/widgets: batch/v1 has no resource "widgets"'],
    [
      'policy/v1beta1=true',
      'policy/v1beta1 PodDisruptionBudget, PodSecurityPolicy was removed in 1.25; use policy/v1',
    ],
  ])('unknown key: %s', (text, message) => {
    expect(() => served(text)).toThrow(message);
  });
  it('a version not yet introduced at the emulated release cannot be switched on', () => {
    expect(() => served('autoscaling/v2=true', '1.22')).toThrow(
      'autoscaling/v2 is not available at emulated release 1.22 (introduced in 1.23)',
    );
  });
  it('names §9.4 replacements under each flavor', () => {
    expect(removedApiMessage('discovery.k8s.io', 'v1beta1', kubernetesFlavor)).toBe(
      'discovery.k8s.io/v1beta1 EndpointSlice was removed in 1.25; use discovery.k8s.io/v1',
    );
    expect(removedApiMessage('discovery.orch.io', 'v1beta1', orchFlavor)).toContain(
      'use discovery.orch.io/v1',
    );
  });
});

describe('deprecation warnings (spec doc 1 §6 item 2, §9.3)', () => {
  const hpa = horizontalPodAutoscalers(orchFlavor);
  it('uses upstream words, with removal release and replacement', () => {
    expect(deprecationOf(hpa, 'v2beta2', r('1.32'))).toEqual({
      warning:
        'autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler',
      removedRelease: '1.26',
    });
    expect(deprecationOf(cronJobs, 'v1beta1', r('1.21'))?.warning).toBe(
      'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
    );
  });
  it('is silent before the deprecation release and for versions never deprecated', () => {
    expect(deprecationOf(cronJobs, 'v1beta1', r('1.20'))).toBeUndefined();
    expect(deprecationOf(cronJobs, 'v1', r('1.32'))).toBeUndefined();
    expect(deprecationOf(jobs, 'v1', r('1.32'))).toBeUndefined();
  });
  it('defaults the removal to deprecated + 3 releases', () => {
    const d = defineResource({
      group: 'x.dev',
      versions: ['v1beta1'],
      lifecycle: { v1beta1: { deprecated: '1.28' } },
      resource: 'ys',
      kind: 'Y',
      namespaced: false,
    });
    expect(deprecationOf(d, 'v1beta1', r('1.30'))).toEqual({
      warning: 'x.dev/v1beta1 Y is deprecated in v1.28+, unavailable in v1.31+',
      removedRelease: '1.31',
    });
  });
});
