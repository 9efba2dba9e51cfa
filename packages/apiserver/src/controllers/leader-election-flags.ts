import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { parseDuration } from '../duration.js';
import {
  defaultLeaderElectionTimings,
  type LeaderElectionOptions,
  validateLeaderElectionTimings,
} from './leader-election.js';

/** The CLI's `--leader-elect*` flags for `parseArgs` (all strings: Go's `--flag=false` form works). */
export const leaderElectionFlagOptions = Object.freeze({
  'leader-elect': { type: 'string', default: 'true' },
  'leader-elect-lease-duration': { type: 'string' },
  'leader-elect-renew-deadline': { type: 'string' },
  'leader-elect-retry-period': { type: 'string' },
} as const);

/** A bare `--leader-elect` means `=true`, as Go's flag package reads it. */
export function normalizeLeaderElectFlag(argv: readonly string[]): string[] {
  return argv.map((a) => (a === '--leader-elect' ? '--leader-elect=true' : a));
}

type FlagValues = Readonly<Record<string, unknown>>;

/**
 * The timings of the `--leader-elect*` flags (Go durations), checked as upstream does; undefined
 * when `--leader-elect=false`. Throws naming the flag.
 */
export function parseLeaderElectionFlags(
  values: FlagValues,
): Omit<LeaderElectionOptions, 'identity'> | undefined {
  const on = String(values['leader-elect'] ?? 'true');
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(on)) return undefined;
  if (!['1', 't', 'T', 'true', 'TRUE', 'True'].includes(on))
    throw new Error(
      `invalid argument "${on}" for "--leader-elect" flag: strconv.ParseBool: parsing "${on}": invalid syntax`,
    );
  const duration = (flag: string, fallback: number): number => {
    const v = values[flag];
    if (typeof v !== 'string') return fallback;
    let ms: number;
    try {
      ms = parseDuration(v);
    } catch (e) {
      throw new Error(`invalid --${flag} ${v}: ${(e as Error).message}`);
    }
    if (!(ms > 0)) throw new Error(`invalid --${flag} ${v}: must be positive`);
    return ms;
  };
  const timings = {
    leaseDurationMs: duration('leader-elect-lease-duration', defaultLeaderElectionTimings.leaseDurationMs),
    renewDeadlineMs: duration('leader-elect-renew-deadline', defaultLeaderElectionTimings.renewDeadlineMs),
    retryPeriodMs: duration('leader-elect-retry-period', defaultLeaderElectionTimings.retryPeriodMs),
  };
  try {
    validateLeaderElectionTimings(timings);
  } catch (e) {
    throw new Error(`invalid --leader-elect-* durations: ${(e as Error).message}`);
  }
  return timings;
}

const identityPattern = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * This server's identity in the election, `<hostname>_<uuid>` as upstream. With `dataDir` (a durable
 * backend) it is kept in `<dataDir>/leader-election-identity`, so a server restarted after a crash
 * takes its own unexpired Lease back at once instead of waiting for it to expire: two live servers
 * must therefore never share a data directory (the SQLite backend's lock already forbids it).
 */
export async function loadLeaderIdentity(dataDir: string | undefined): Promise<string> {
  const fresh = `${
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 150) || 'orchard'
  }_${randomUUID()}`;
  if (dataDir === undefined) return fresh;
  const file = join(dataDir, 'leader-election-identity');
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (identityPattern.test(kept)) return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${fresh}\n`, { mode: 0o600 });
  return fresh;
}
