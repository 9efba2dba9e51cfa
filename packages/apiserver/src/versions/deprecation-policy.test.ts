import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../registry/builtin/index.js';
import { defineResource } from '../registry/resource.js';
import { deprecationOf } from './deprecation.js';
import { binaryRelease, minEmulatedRelease, parseRelease, type Release, stabilityOf } from './release.js';
import { removedApis } from './removed-apis.js';
import { parseRuntimeConfig } from './runtime-config.js';
import { removedReleaseOf, servedResources } from './served.js';

/**
 * The deprecation rules of spec doc 1 §9.3 as properties of the server's own release tables: every
 * built-in version's history and every row of the §9.4 table is checked, under both flavors.
 */
const rank = { alpha: 0, beta: 1, stable: 2 } as const;
const releases: Release[] = [];
for (let m = minEmulatedRelease.minor; m <= binaryRelease.minor; m++) releases.push({ major: 1, minor: m });
const rel = (t: string) => parseRelease(t) as Release;

describe.each([orchFlavor, kubernetesFlavor])(
  'deprecation rules over the built-in tables ($name)',
  (flavor) => {
    const defs = builtinResources(flavor);

    it('rule 1: a resource never loses its last served version; elements go only with their version', () => {
      for (const release of releases) {
        const served = servedResources(defs, [], { runtimeConfig: parseRuntimeConfig(''), release, flavor });
        for (const def of defs) {
          const existed = def.versions.some((v) => {
            const i = def.lifecycle?.[v]?.introduced;
            return i === undefined || rel(i).minor <= release.minor;
          });
          if (!existed) continue;
          const s = served.find((d) => d.group === def.group && d.resource === def.resource);
          expect(
            s?.versions.length ?? 0,
            `${def.group}/${def.resource} at 1.${release.minor}`,
          ).toBeGreaterThan(0);
        }
      }
    });

    it('rules 3 and 8: a version is deprecated only in favour of one at least as stable, that the server serves', () => {
      for (const def of defs)
        for (const [version, l] of Object.entries(def.lifecycle ?? {})) {
          if (l.deprecated === undefined) continue;
          expect(l.replacement, `${def.resource} ${version}`).toBeDefined();
          const to = l.replacement as NonNullable<typeof l.replacement>;
          expect(rank[stabilityOf(to.version)]).toBeGreaterThanOrEqual(rank[stabilityOf(version)]);
          expect(def.versions).toContain(to.version);
          // The replacement is served before the old version goes, so an upgrade followed by a
          // rollback works (rule 4b); upstream's v2beta1 named v2 before v2 existed, but not past removal.
          const introduced = def.lifecycle?.[to.version]?.introduced;
          const removed = removedReleaseOf(l, version);
          if (introduced && removed) expect(rel(introduced).minor).toBeLessThan(removed.minor);
        }
      for (const row of removedApis) {
        const replacement = row.replacement.slice(row.replacement.lastIndexOf('/') + 1);
        expect(rank[stabilityOf(replacement)], `${row.group}/${row.version}`).toBeGreaterThanOrEqual(
          rank[stabilityOf(row.version)],
        );
      }
    });

    it('rule 4b: the storage version of every multi-version built-in exists in every release it is served', () => {
      for (const def of defs) {
        if (def.versions.length < 2) continue;
        const storage = def.storageVersion ?? def.versions[0];
        expect(stabilityOf(storage as string), def.resource).toBe('stable');
        expect(def.lifecycle?.[storage as string]?.deprecated, def.resource).toBeUndefined();
      }
    });
  },
);

describe('rule 4a: stable versions are never removed within a major version', () => {
  const thing = defineResource({
    group: 'example.dev',
    versions: ['v1', 'v2beta1', 'v1alpha1'],
    lifecycle: {
      v1: { introduced: '1.16', deprecated: '1.20' },
      v2beta1: { introduced: '1.18', deprecated: '1.20' },
      v1alpha1: { introduced: '1.16' },
    },
    resource: 'things',
    kind: 'Thing',
    namespaced: true,
  });
  const at = (release: string, rc = '') =>
    servedResources([thing], [], {
      runtimeConfig: parseRuntimeConfig(rc),
      release: rel(release),
      flavor: orchFlavor,
    })[0]?.versions;

  it('a deprecated stable version stays served long after the beta window, and warns without a removal date', () => {
    expect(at('1.32')).toEqual(['v1']);
    expect(deprecationOf(thing, 'v1', rel('1.32'))?.warning).toBe(
      'example.dev/v1 Thing is deprecated in v1.20+',
    );
    expect(deprecationOf(thing, 'v1', rel('1.32'))?.removedRelease).toBe('');
  });

  it('a deprecated beta goes after deprecated + 3 releases; an alpha is off unless switched on', () => {
    expect(at('1.22', 'api/beta=true')).toEqual(['v1', 'v2beta1']);
    expect(at('1.23', 'api/beta=true')).toEqual(['v1']);
    expect(at('1.20', 'example.dev/v1alpha1=true')).toEqual(['v1', 'v2beta1', 'v1alpha1']);
    expect(at('1.20')).toEqual(['v1', 'v2beta1']);
    expect(deprecationOf(thing, 'v2beta1', rel('1.21'))?.removedRelease).toBe('1.23');
  });
});
