import { describe, expect, it } from 'vitest';
import {
  defaultFeatureGates,
  featureEnabled,
  knownFeatureGates,
  parseFeatureGates,
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
});
