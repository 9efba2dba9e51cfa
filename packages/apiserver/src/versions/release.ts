/**
 * Releases (`1.32`) and the stability level of a version name (spec doc 1 §9.1): what the
 * served-version decisions and the deprecation warnings compare.
 */

/** A minor release of major version 1, e.g. `{ major: 1, minor: 32 }` for `1.32`. */
export interface Release {
  readonly major: number;
  readonly minor: number;
}

/** The release this server implements (what `/version` reports). */
export const binaryRelease: Release = Object.freeze({ major: 1, minor: 32 });

/**
 * The oldest release `--emulated-release` accepts: the oldest row of the removal table of spec
 * doc 1 §9.4 (1.16), so every removal the spec lists can be rehearsed.
 */
export const minEmulatedRelease: Release = Object.freeze({ major: 1, minor: 16 });

/** Parses `1.25` (or `v1.25`); undefined when the text is not a `<major>.<minor>` release. */
export function parseRelease(text: string): Release | undefined {
  const m = /^v?(\d{1,3})\.(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** `1.25`. */
export function formatRelease(r: Release): string {
  return `${r.major}.${r.minor}`;
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareReleases(a: Release, b: Release): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** A release error of `--emulated-release` (out of range or malformed), as a message. */
export function validateEmulatedRelease(text: string): Release {
  const r = parseRelease(text);
  if (!r) throw new Error(`invalid release ${JSON.stringify(text)}: must be <major>.<minor>, e.g. 1.32`);
  if (compareReleases(r, minEmulatedRelease) < 0 || compareReleases(r, binaryRelease) > 0)
    throw new Error(
      `emulated release ${formatRelease(r)} is not between [${formatRelease(minEmulatedRelease)}, ${formatRelease(binaryRelease)}]`,
    );
  return r;
}

/** The stability level a version name states (spec doc 1 §9.1). */
export type VersionStability = 'alpha' | 'beta' | 'stable';

/** `v1alpha1` → alpha, `v2beta3` → beta, `v1` → stable; other names (CRDs may use any) count as stable. */
export function stabilityOf(version: string): VersionStability {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'stable';
}
