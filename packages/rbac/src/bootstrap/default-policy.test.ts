import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { defaultPolicy, sharedDefaultPolicy } from './default-policy.js';

describe.each([orchFlavor, kubernetesFlavor])('the default policy of $domain', (flavor) => {
  it('is translated once and shared frozen; defaultPolicy gives equal mutable copies', () => {
    const shared = sharedDefaultPolicy(flavor);
    expect(sharedDefaultPolicy(flavor)).toBe(shared);
    expect(Object.isFrozen(shared.clusterRoles[0]?.metadata)).toBe(true);
    expect(() => {
      (shared.clusterRoles as unknown[]).push({});
    }).toThrow(TypeError);
    const copy = defaultPolicy(flavor);
    expect(copy).toEqual(shared);
    expect(copy).not.toBe(shared);
    (copy.clusterRoles[0]!.metadata as { name: string }).name = 'changed';
    expect(shared.clusterRoles[0]!.metadata.name).not.toBe('changed');
    expect(defaultPolicy(flavor).clusterRoles[0]!.metadata.name).not.toBe('changed');
  });
});
