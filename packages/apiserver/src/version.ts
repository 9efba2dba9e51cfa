/**
 * `/version`: the release the spec describes (1.32). kubectl derives its client version from
 * `minor` on this machine, and `gitVersion` must parse as semver.
 */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export const orchardVersion = '0.1.0';

/** What `/version` answers: the 1.32 release kubectl expects, with Orchard build details. */
export function versionInfo(): VersionInfo {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.4-orchard.0.1.0',
    gitCommit: 'orchard',
    gitTreeState: 'clean',
    buildDate: '2026-11-21T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
