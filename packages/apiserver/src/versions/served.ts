/**
 * Which versions of which resources a server serves (spec doc 1 §9.1–9.4): the stability level of
 * each version, its release history at the emulated release, and `--runtime-config`. A version not
 * served is left out of the registry, so it vanishes from discovery and OpenAPI and answers 404.
 */
import { type Flavor, formatApiVersion } from '@orchard/meta';
import type { ResourceDefinition, VersionLifecycle } from '../registry/resource.js';
import { compareReleases, formatRelease, parseRelease, type Release, stabilityOf } from './release.js';
import { removedApiMessage } from './removed-apis.js';
import { type RuntimeConfig, RuntimeConfigError, runtimeConfigValue, targetOfKey } from './runtime-config.js';

/** What decides the served versions. */
export interface ServedVersionsOptions {
  readonly runtimeConfig: RuntimeConfig;
  /** The emulated release (`--emulated-release`). */
  readonly release: Release;
  readonly flavor: Flavor;
}

/** Betas introduced before this release are on by default (spec doc 1 §9.1). */
const betaOnBefore: Release = { major: 1, minor: 22 };

/** The release a lifecycle field names, or undefined. */
function releaseOf(text: string | undefined): Release | undefined {
  return text === undefined ? undefined : parseRelease(text);
}

/**
 * The release that stops serving a version: `removed`, else upstream's deprecated + 3 minors. A
 * stable version is never removed within its major version, deprecated or not (spec doc 1 §9.3
 * rule 4a), so it has none.
 */
export function removedReleaseOf(l: VersionLifecycle | undefined, version: string): Release | undefined {
  if (stabilityOf(version) === 'stable') return undefined;
  const removed = releaseOf(l?.removed);
  if (removed) return removed;
  const dep = releaseOf(l?.deprecated);
  return dep ? { major: dep.major, minor: dep.minor + 3 } : undefined;
}

/** Whether the version exists at `release` (introduced by then). */
function introducedBy(l: VersionLifecycle | undefined, release: Release): boolean {
  const i = releaseOf(l?.introduced);
  return i === undefined || compareReleases(release, i) >= 0;
}

/**
 * Whether a built-in version is on when `--runtime-config` says nothing: stable yes, beta only if
 * introduced before 1.22, alpha no; never once removed at `release`.
 */
export function servedByDefault(version: string, l: VersionLifecycle | undefined, release: Release): boolean {
  const removed = removedReleaseOf(l, version);
  if (removed && compareReleases(release, removed) >= 0) return false;
  const level = stabilityOf(version);
  if (level === 'stable') return true;
  if (level === 'alpha') return false;
  const introduced = releaseOf(l?.introduced);
  return introduced !== undefined && compareReleases(introduced, betaOnBefore) < 0;
}

function isServed(
  def: ResourceDefinition,
  version: string,
  builtin: boolean,
  opts: ServedVersionsOptions,
): boolean {
  const l = def.lifecycle?.[version];
  if (!introducedBy(l, opts.release)) return false;
  const removed = removedReleaseOf(l, version);
  const isRemoved = removed !== undefined && compareReleases(opts.release, removed) >= 0;
  let on = builtin ? servedByDefault(version, l, opts.release) : true;
  // The level keys never bring back a removed version; only a key naming it does.
  if (!isRemoved) {
    const all = runtimeConfigValue(opts.runtimeConfig, 'api/all');
    if (all !== undefined) on = all;
    const level = stabilityOf(version);
    const levelValue = runtimeConfigValue(opts.runtimeConfig, level === 'stable' ? 'api/ga' : `api/${level}`);
    if (levelValue !== undefined) on = levelValue;
  }
  const gv = def.group === '' ? `api/${version}` : `${def.group}/${version}`;
  const gvValue = runtimeConfigValue(opts.runtimeConfig, gv);
  if (gvValue !== undefined) on = gvValue;
  const rValue = runtimeConfigValue(opts.runtimeConfig, `${gv}/${def.resource}`);
  if (rValue !== undefined) on = rValue;
  return on;
}

/**
 * Checks every `<group>/<version>[/<resource>]` key against the resources the server knows:
 * a group version or resource it does not know, or one not yet introduced at the emulated
 * release, fails with a message naming the key (and the §9.4 replacement of a removed version).
 */
function checkKeys(defs: readonly ResourceDefinition[], opts: ServedVersionsOptions): void {
  const release = formatRelease(opts.release);
  for (const { key } of opts.runtimeConfig) {
    const t = targetOfKey(key);
    if (!t) continue;
    const gv = formatApiVersion({ group: t.group, version: t.version });
    const inGv = defs.filter((d) => d.group === t.group && d.versions.includes(t.version));
    if (inGv.length === 0) {
      const removed = removedApiMessage(t.group, t.version, opts.flavor);
      throw new RuntimeConfigError(
        `invalid key ${key}: group version ${gv} is not served by this server${removed ? ` (${removed})` : ''}`,
      );
    }
    const named = t.resource === undefined ? inGv : inGv.filter((d) => d.resource === t.resource);
    if (named.length === 0)
      throw new RuntimeConfigError(`invalid key ${key}: ${gv} has no resource ${JSON.stringify(t.resource)}`);
    if (named.every((d) => !introducedBy(d.lifecycle?.[t.version], opts.release)))
      throw new RuntimeConfigError(
        `invalid key ${key}: ${gv} is not available at emulated release ${release} (introduced in ${named[0]?.lifecycle?.[t.version]?.introduced})`,
      );
  }
}

/**
 * The definitions as served: each keeps the versions that are on (its storage version recorded
 * even when not served, since stored objects stay decodable, §9.3 rule 4b); one with no version
 * left is dropped. `builtin` definitions follow the stability defaults; `extra` ones (the
 * embedder's own) are served as declared unless a key switches them. Throws `RuntimeConfigError`.
 */
export function servedResources(
  builtin: readonly ResourceDefinition[],
  extra: readonly ResourceDefinition[],
  opts: ServedVersionsOptions,
): ResourceDefinition[] {
  checkKeys([...builtin, ...extra], opts);
  const out: ResourceDefinition[] = [];
  for (const [defs, isBuiltin] of [
    [builtin, true],
    [extra, false],
  ] as const) {
    for (const def of defs) {
      const versions = def.versions.filter((v) => isServed(def, v, isBuiltin, opts));
      if (versions.length === 0) continue;
      if (versions.length === def.versions.length) out.push(def);
      else
        out.push(
          Object.freeze({
            ...def,
            versions,
            storageVersion: def.storageVersion ?? def.versions[0] ?? versions[0],
          }),
        );
    }
  }
  return out;
}
