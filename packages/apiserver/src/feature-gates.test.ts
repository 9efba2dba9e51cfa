import { describe, expect, it } from 'vitest';
import {
  defaultFeatureGates,
  featureEnabled,
  featureGateWarnings,
  knownFeatureGates,
  parseFeatureGates,
  resolveFeatureGates,
} from './feature-gates.js';

describe('feature gates', () => {
  it('know WatchList (sendInitialEvents), beta and on by default as in 1.32', () => {
    expect(knownFeatureGates.WatchList).toEqual({ default: true, stage: 'beta' });
    expect(defaultFeatureGates.WatchList).toBe(true);
    expect(parseFeatureGates('WatchList=false')).toEqual({ WatchList: false });
    expect(featureEnabled({ WatchList: false }, 'WatchList')).toBe(false);
    expect(featureEnabled({}, 'WatchList')).toBe(true);
  });

  it('reject unknown names and non-boolean values with upstream messages', () => {
    expect(() => parseFeatureGates('Nope=true')).toThrow('unrecognized feature gate: Nope');
    expect(() => parseFeatureGates('WatchList')).toThrow('missing bool value for WatchList');
    expect(() => parseFeatureGates('WatchList=yes')).toThrow('strconv.ParseBool');
  });

  it('lock GA gates: setting them to their value warns, the other value fails (spec doc 1 §9.3 rule 10)', () => {
    expect(knownFeatureGates.APISelfSubjectReview).toEqual({
      default: true,
      stage: 'ga',
      lockToDefault: true,
    });
    expect(parseFeatureGates('APISelfSubjectReview=true')).toEqual({ APISelfSubjectReview: true });
    expect(featureGateWarnings({ APISelfSubjectReview: true })).toEqual([
      'Setting GA feature gate APISelfSubjectReview=true. It will be removed in a future release.',
    ]);
    expect(() => parseFeatureGates('APISelfSubjectReview=false')).toThrow(
      'cannot set feature gate APISelfSubjectReview to false, feature is locked to true',
    );
    expect(() => resolveFeatureGates({ APISelfSubjectReview: false })).toThrow('feature is locked to true');
  });

  it('warn when a deprecated gate is set; say nothing for alpha and beta ones', () => {
    const table = { OldThing: { default: false, stage: 'deprecated' as const } };
    expect(featureGateWarnings({ OldThing: true } as never, table)).toEqual([
      'Setting deprecated feature gate OldThing=true. It will be removed in a future release.',
    ]);
    expect(featureGateWarnings({ WatchList: false, CBORServingAndStorage: true })).toEqual([]);
  });

  it('know the gates the spec names, with their 1.32 stage and default', () => {
    expect(knownFeatureGates.ContainerCheckpoint).toEqual({ default: true, stage: 'beta' });
    expect(knownFeatureGates.InPlacePodVerticalScaling).toEqual({ default: false, stage: 'alpha' });
    expect(knownFeatureGates.CBORServingAndStorage).toEqual({ default: false, stage: 'alpha' });
    expect(knownFeatureGates.APIResponseCompression).toEqual({ default: true, stage: 'beta' });
    expect(knownFeatureGates.AllowUnsafeMalformedObjectDeletion).toEqual({ default: false, stage: 'alpha' });
  });
});
