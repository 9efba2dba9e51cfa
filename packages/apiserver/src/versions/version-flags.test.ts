import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { parseVersionFlags } from './version-flags.js';

describe('--runtime-config and --emulated-release', () => {
  it('parses both, normalizing the release', () => {
    expect(
      parseVersionFlags(
        { 'runtime-config': 'autoscaling/v2beta2,batch/v1/jobs=false', 'emulated-release': 'v1.25' },
        orchFlavor,
      ),
    ).toEqual({
      runtimeConfig: [
        { key: 'autoscaling/v2beta2', enabled: true },
        { key: 'batch/v1/jobs', enabled: false },
      ],
      emulatedRelease: '1.25',
    });
    expect(parseVersionFlags({}, orchFlavor)).toEqual({});
  });
  it.each([
    [{ 'runtime-config': 'batch/v1=yes' }, 'invalid --runtime-config: invalid value of batch/v1: yes'],
    [
      { 'runtime-config': 'extensions/v1beta1' },
      'extensions/v1beta1 Ingress was removed in 1.22; use networking.k8s.io/v1',
    ],
    [
      { 'runtime-config': 'coordination.k8s.io/v1/leasez' },
      'coordination.k8s.io/v1 has no resource "leasez"',
    ],
    [
      { 'emulated-release': '2.0' },
      'invalid --emulated-release 2.0: emulated release 2.0 is not between [1.16, 1.32]',
    ],
    [
      { 'emulated-release': '1.22', 'runtime-config': 'autoscaling/v2' },
      'autoscaling/v2 is not available at emulated release 1.22',
    ],
  ])('%j fails: %s', (values, message) => {
    expect(() => parseVersionFlags(values, kubernetesFlavor)).toThrow(message);
  });
});
