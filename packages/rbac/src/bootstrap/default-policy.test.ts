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

describe('the orch translation', () => {
  const strings = (v: unknown, out: string[] = []): string[] => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        strings(x, out);
      }
    return out;
  };
  it('leaves no upstream group, key or system namespace behind', () => {
    const all = strings(sharedDefaultPolicy(orchFlavor));
    expect(
      all.filter((s) => /\.k8s\.io($|\/|:)|(^|\.)kubernetes\.io\/|^kube-(system|public)$/.test(s)),
    ).toEqual([]);
    expect(all).toContain(`rbac.authorization.${orchFlavor.domain}/autoupdate`);
    expect(all).toContain(orchFlavor.systemNamespace);
    expect(all).toContain(`system:${orchFlavor.namespaceFinalizer}-scheduler`);
  });
  it('gives the kubernetes flavor the upstream data unchanged', () => {
    const all = strings(sharedDefaultPolicy(kubernetesFlavor));
    expect(all).toContain('rbac.authorization.kubernetes.io/autoupdate');
    expect(all).toContain('kube-system');
    expect(all).toContain('system:kube-scheduler');
  });
});
