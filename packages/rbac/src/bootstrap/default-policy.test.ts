import { createHash } from 'node:crypto';
import { type Flavor, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { defaultPolicy, sharedDefaultPolicy, translatedPolicyData } from './default-policy.js';
import orchTranslation from './upstream-policy.orch.json' with { type: 'json' };

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

describe('the shared policy', () => {
  const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
  const everyFrozen = (v: unknown): boolean =>
    typeof v !== 'object' || v === null || (Object.isFrozen(v) && Object.values(v).every(everyFrozen));

  it('is, key order included, what it was when this test was written (golden)', () => {
    // The SHA-256 of JSON.stringify of each flavor's policy at b9549df: a change to the upstream
    // data or to the translation shows here, and the new hashes must be checked and written in.
    expect(hash(sharedDefaultPolicy(orchFlavor))).toBe(
      'efc9cd5ac372ce1bb3750dd83a972f51b6015f0e6344bb253f630f19442e1f5f',
    );
    expect(hash(sharedDefaultPolicy(kubernetesFlavor))).toBe(
      '1771d499e5463e72f593a3887d10d2d9a5b979ff98f974480938a5e9e55922df',
    );
  });

  it('is frozen all the way down', () => {
    expect(everyFrozen(sharedDefaultPolicy(orchFlavor))).toBe(true);
    expect(everyFrozen(sharedDefaultPolicy(kubernetesFlavor))).toBe(true);
  });
});

describe('the shipped orch translation', () => {
  it('is what translating the upstream data gives now (rerun scripts/generate-orch-policy.ts if not)', () => {
    expect(JSON.stringify(orchTranslation)).toBe(JSON.stringify(translatedPolicyData(orchFlavor)));
    // And it is what the orch flavor (and one equal to it) gets, frozen in place, not a translation.
    expect(sharedDefaultPolicy(orchFlavor).clusterRoles[0]).toBe(orchTranslation['cluster-roles'][0]);
    expect(sharedDefaultPolicy({ ...orchFlavor }).roles[0]).toBe(orchTranslation['namespace-roles'][0]);
  });

  it('is not used for a flavor that translates differently: that one is translated, and frozen', () => {
    const custom: Flavor = { ...orchFlavor, domain: 'example.dev', systemNamespace: 'ex-system' };
    const policy = sharedDefaultPolicy(custom);
    const text = JSON.stringify(policy);
    expect(text).toContain('rbac.authorization.example.dev/autoupdate');
    expect(text).toContain('"ex-system"');
    expect(text).not.toContain(orchFlavor.domain);
    expect(Object.isFrozen(policy.roleBindings[0]?.subjects)).toBe(true);
    expect(JSON.stringify(policy)).toBe(JSON.stringify(sharedDefaultPolicy({ ...custom })));
  });
});
