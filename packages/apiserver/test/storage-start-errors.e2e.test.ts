import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@orchard/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from './helpers/cli-server.js';

/**
 * Start-up with bad storage (issue 15, "Bad input"): the CLI exits non-zero with one line naming the
 * file, and touches nothing in the data directory.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-start-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('orchard-apiserver start-up errors of the storage', () => {
  it('a corrupt SQLite file: exit 1, the file named, left as it was, no certificates written', async () => {
    const dir = join(root, 'corrupt');
    mkdirSync(dir);
    const db = join(dir, 'orchard.sqlite');
    const garbage = Buffer.alloc(16384, 0x5a);
    writeFileSync(db, garbage);
    const r = await runCli(['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${db} is not a readable SQLite database`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // one line, no stack
    expect(readFileSync(db).equals(garbage)).toBe(true);
    expect(existsSync(join(dir, 'tls'))).toBe(false);
    expect(existsSync(join(dir, 'admin.kubeconfig'))).toBe(false);
  });

  it('a database damaged past its header: exit 1 naming the file (checked at open, not at the first bad read)', async () => {
    const dir = join(root, 'damaged');
    mkdirSync(dir);
    const db = join(dir, 'orchard.sqlite');
    const store = createSqliteStore({ path: db });
    for (let i = 0; i < 2000; i++)
      await store.create(`/core/configmaps/default/c${i}`, new Uint8Array(300).fill(65));
    await store.close();
    const bytes = readFileSync(db);
    bytes.fill(0xde, bytes.length / 2, bytes.length / 2 + 8192);
    writeFileSync(db, bytes);
    const r = await runCli(['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${db} is not a readable SQLite database`);
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });

  it('a data directory held by a running server: exit 1 naming the file; the running one is unharmed', async () => {
    const dir = join(root, 'held');
    const kubeconfig = join(root, 'held.kubeconfig');
    const first = await startCliServer(['--data-dir', dir], kubeconfig);
    try {
      expect(
        (await first.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } }))
          .status,
      ).toBe(201);
      const caBefore = readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8');
      const r = await runCli([
        '--port',
        '0',
        '--data-dir',
        dir,
        '--kubeconfig-out',
        join(root, 'second.kubeconfig'),
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${join(dir, 'orchard.sqlite')} is held by another running server`);
      expect(existsSync(join(root, 'second.kubeconfig'))).toBe(false);
      expect(readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8')).toBe(caBefore);
      expect((await first.request('GET', '/api/v1/namespaces/default/configmaps/x')).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('unreadable certificate material: exit 1 naming the file', async () => {
    const dir = join(root, 'badtls');
    mkdirSync(join(dir, 'tls'), { recursive: true });
    writeFileSync(join(dir, 'tls', 'ca.crt'), 'not a certificate');
    writeFileSync(join(dir, 'tls', 'ca.key'), 'not a key');
    const r = await runCli(['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(dir, 'tls', 'ca.crt'));
    expect(readFileSync(join(dir, 'tls', 'ca.crt'), 'utf8')).toBe('not a certificate');
  });

  it('a malformed continue-token key: exit 1 naming the file, left as it was', async () => {
    const dir = join(root, 'badkey');
    mkdirSync(dir);
    writeFileSync(join(dir, 'continue-token.key'), '{"__proto__": {"polluted": true}}');
    const r = await runCli(['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'continue-token.key')}: expected 64 hex digits`);
    expect(readFileSync(join(dir, 'continue-token.key'), 'utf8')).toContain('__proto__');
  });

  it('an unknown --storage: exit 2 listing the backends', async () => {
    const r = await runCli(['--storage', 'floppy', '--data-dir', join(root, 'unused')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unsupported --storage floppy (available: sqlite, memory, etcd)');
    expect(existsSync(join(root, 'unused'))).toBe(false);
  });

  it('--storage memory writes no database and no certificates into the data directory', async () => {
    const dir = join(root, 'memory');
    const kubeconfig = join(dir, 'admin.kubeconfig');
    const api = await startCliServer(['--storage', 'memory', '--data-dir', dir], kubeconfig);
    try {
      expect(api.stderr()).toContain('storage: memory');
      expect((await api.request('GET', '/api/v1/namespaces/default')).status).toBe(200);
      expect(existsSync(join(dir, 'orchard.sqlite'))).toBe(false);
      expect(existsSync(join(dir, 'tls'))).toBe(false);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });
});
