import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { postSelfSubjectReview, runCli, spawnCli, waitForCliOutput } from './helpers/cli-server.js';

interface Kubeconfig {
  clusters: { cluster: { server: string; 'certificate-authority-data'?: string } }[];
  users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

/** The CLI as users start it: HTTPS on loopback, a kubeconfig on disk, clean exit on SIGTERM. */
describe('orchard-apiserver CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchard-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the URL, writes a working admin kubeconfig and exits cleanly on SIGTERM', async () => {
    const kubeconfigPath = join(dir, 'nested', 'admin.kubeconfig');
    const cli = spawnCli([
      '--port',
      '0',
      '--flavor',
      'kubernetes',
      '--data-dir',
      join(dir, 'data'),
      '--kubeconfig-out',
      kubeconfigPath,
    ]);
    try {
      await waitForCliOutput(cli, 'kubeconfig written', 15_000);
      const out = cli.stdout();
      const err = cli.stderr();
      const m = /listening on (https:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
      expect(m, `stdout: ${out}\nstderr: ${err}`).not.toBeNull();
      const url = m?.[1] as string;
      // It holds the admin's private key: owner-only (docs/security.md).
      expect(statSync(kubeconfigPath).mode & 0o777).toBe(0o600);
      const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
      expect(kc.clusters[0]?.cluster.server).toBe(url);
      const ca = Buffer.from(
        kc.clusters[0]?.cluster['certificate-authority-data'] ?? '',
        'base64',
      ).toString();
      const cert = Buffer.from(kc.users[0]?.user['client-certificate-data'] ?? '', 'base64').toString();
      const key = Buffer.from(kc.users[0]?.user['client-key-data'] ?? '', 'base64').toString();
      expect(ca).toContain('BEGIN CERTIFICATE');
      const body = await postSelfSubjectReview(url, 'authentication.k8s.io', { ca, cert, key });
      expect(JSON.parse(body)).toMatchObject({
        status: { userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] } },
      });
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  });

  it('rejects an unknown flavor with exit code 2', async () => {
    const r = await runCli(['--flavor', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown flavor');
  });

  it('rejects a --compaction-interval without a unit with exit code 2', async () => {
    const r = await runCli(['--compaction-interval', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid --compaction-interval 5');
  });
});
