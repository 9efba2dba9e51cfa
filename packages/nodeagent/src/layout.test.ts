import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, ensureRootLayout, LockHeldError } from './layout.js';

const dir = mkdtempSync(join(tmpdir(), 'nodeagent-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('root directory layout (spec doc 2 §2.9)', () => {
  it('creates pki, checkpoints (0700), seccomp, device-plugins, pod-resources, plugins_registry under --root-dir', () => {
    const layout = ensureRootLayout(join(dir, 'root'));
    for (const sub of [
      'pki',
      'checkpoints',
      'seccomp',
      'device-plugins',
      'pod-resources',
      'plugins_registry',
    ])
      expect(statSync(join(dir, 'root', sub)).isDirectory()).toBe(true);
    expect(statSync(layout.checkpoints).mode & 0o777).toBe(0o700);
  });
});

describe('lock file (--lock-file)', () => {
  it('refuses a second agent on the same path while the first holds it, and frees it on release', () => {
    const path = join(dir, 'run', 'nodeagent.lock');
    const release = acquireLock(path);
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    expect(() => acquireLock(path)).toThrow(LockHeldError);
    expect(() => acquireLock(path)).toThrow(`another node agent (pid ${process.pid}) holds the lock`);
    // A different path is not seen (as the spec says).
    const other = acquireLock(join(dir, 'run', 'other.lock'));
    other();
    release();
    expect(existsSync(path)).toBe(false);
    acquireLock(path)();
  });

  it('takes over a lock left by a process that no longer exists, or holding garbage', () => {
    const path = join(dir, 'stale.lock');
    writeFileSync(path, '2147483646\n');
    const release = acquireLock(path);
    expect(readFileSync(path, 'utf8').trim()).toBe(String(process.pid));
    release();
    writeFileSync(path, 'not a pid');
    acquireLock(path)();
  });
});
