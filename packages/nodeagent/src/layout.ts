import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The agent's root directory (`--root-dir`, spec doc 2 §2.9). */
export const defaultRootDir = '/var/lib/nodeagent';
/** The lock file (`--lock-file`). */
export const defaultLockFile = '/var/run/nodeagent.lock';

/** The directories of §2.9 under the root directory. */
export interface RootLayout {
  readonly root: string;
  /** Certificates and keys (`--cert-dir`). */
  readonly pki: string;
  /** Container checkpoint archives. */
  readonly checkpoints: string;
  /** Syscall filter profiles. */
  readonly seccomp: string;
  /** Device plugin registration socket and plugin sockets. */
  readonly devicePlugins: string;
  /** The pod resources API socket. */
  readonly podResources: string;
  /** Plugin registry (device, DRA and storage plugin sockets). */
  readonly pluginsRegistry: string;
}

/** The §2.9 paths under `root`, created (mode 0750; checkpoints 0700: archives hold process memory). */
export function ensureRootLayout(root: string): RootLayout {
  const layout: RootLayout = {
    root,
    pki: join(root, 'pki'),
    checkpoints: join(root, 'checkpoints'),
    seccomp: join(root, 'seccomp'),
    devicePlugins: join(root, 'device-plugins'),
    podResources: join(root, 'pod-resources'),
    pluginsRegistry: join(root, 'plugins_registry'),
  };
  for (const [name, dir] of Object.entries(layout))
    mkdirSync(dir, { recursive: true, mode: name === 'checkpoints' ? 0o700 : 0o750 });
  return layout;
}

/** Why a lock was refused. */
export class LockHeldError extends Error {
  constructor(path: string, pid: number) {
    super(`${path}: another node agent (pid ${pid}) holds the lock`);
    this.name = 'LockHeldError';
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the lock file (`--lock-file`): created exclusively with this process's pid; a file left by a
 * process that no longer exists is taken over; one held by a live process refuses with
 * `LockHeldError`. Two agents with different lock paths do not see each other (as the spec says).
 * Returns the release function.
 */
export function acquireLock(path: string): () => void {
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    } catch {
      // removed meanwhile: try again
    }
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) throw new LockHeldError(path, holder);
    rmSync(path, { force: true });
  }
  throw new Error(`${path}: cannot take the lock`);
}
