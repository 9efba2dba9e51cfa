import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlAvailable, kubectlBinary } from '@orchard/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, startCliServer, waitForCliOutput } from './helpers/cli-server.js';
import { flavorNames } from './helpers/flavors.js';

/**
 * The CLI's start banner and logs (issue 20 item 2): the one-screen banner on stdout, pino records on
 * stderr as text or JSON, a request line per request at `-v 2` only, and bad log flags refused.
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-cli-logs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Waits (bounded, 20 s) until `check` holds. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(flavorNames)('CLI banner and logs (%s)', (flavor) => {
  it('text: the banner names URL, kubeconfig, flavor, storage, data dir, authn, authz and an export line; -v 2 logs each request', async () => {
    const dataDir = join(root, `${flavor}-text`);
    const kubeconfig = join(root, `${flavor}-text.kubeconfig`);
    const api = await startCliServer(['--flavor', flavor, '--data-dir', dataDir, '-v', '2'], kubeconfig);
    try {
      const out = api.stdout();
      expect(out).toContain(`Orchard API server ready (flavor ${flavor})\n`);
      expect(out).toContain(`listening on ${api.url}\n`);
      expect(out).toContain(`kubeconfig written to ${kubeconfig}\n`);
      expect(out).toContain(`storage: sqlite ${join(dataDir, 'orchard.sqlite')} (data dir ${dataDir})\n`);
      expect(out).toMatch(/^authentication: x509, service-account, anonymous$/m);
      expect(out).toMatch(/^authorization: Node, RBAC$/m);
      expect(out).toContain(`\n  export KUBECONFIG=${kubeconfig}\n`);
      // One screen.
      expect(out.split('\n').length).toBeLessThan(20);
      // Logs are text lines on stderr, with a klog-like severity and time prefix.
      expect(api.stderr()).toMatch(/^I\d{4} \d\d:\d\d:\d\d\.\d{3} storage: sqlite /m);
      const r = await api.request('GET', '/api/v1/namespaces?limit=2', undefined, {
        'user-agent': 'logs-test/1.0',
      });
      expect(r.status).toBe(200);
      await until('the request line', () => api.stderr().includes('userAgent=logs-test/1.0'));
      const line =
        api
          .stderr()
          .split('\n')
          .find((l) => l.includes('userAgent=logs-test/1.0')) ?? '';
      expect(line).toMatch(
        /^I\d{4} [\d:.]+ HTTP verb=LIST URI="\/api\/v1\/namespaces\?limit=2" latency=[\d.]+m?s userAgent=logs-test\/1\.0 audit-ID=[\w-]+ srcIP=127\.0\.0\.1:\d+ resp=200$/,
      );
      if (flavor === 'kubernetes' && kubectlAvailable()) {
        // The banner's export line, run as it is printed, points stock kubectl at the server.
        const exportLine = /^ {2}(export KUBECONFIG=.*)$/m.exec(out)?.[1] ?? '';
        const got = await new Promise<string>((resolve, reject) =>
          execFile(
            'sh',
            ['-c', `${exportLine} && "$0" get ns default -o name`, kubectlBinary()],
            (e, so, se) => (e ? reject(new Error(`${e.message}\n${se}`)) : resolve(so)),
          ),
        );
        expect(got.trim()).toBe('namespace/default');
      }
    } finally {
      expect(await api.stop()).toBe(0);
    }
    expect(api.stderr()).toContain('received SIGTERM, shutting down');
  });

  it('json: one "ready" record on stdout, pino lines on stderr, no request lines at -v 0', async () => {
    const dataDir = join(root, `${flavor}-json`);
    const cli = spawnCli([
      '--port',
      '0',
      '--flavor',
      flavor,
      '--storage',
      'memory',
      '--insecure-http',
      '--data-dir',
      dataDir,
      '--log-format',
      'json',
      '--v=0',
    ]);
    try {
      await waitForCliOutput(cli, '"msg":"ready"', 30_000);
      const lines = cli.stdout().trim().split('\n');
      expect(lines).toHaveLength(1);
      const ready = JSON.parse(lines[0] as string) as Record<string, unknown>;
      expect(ready).toMatchObject({
        level: 30,
        msg: 'ready',
        flavor,
        storage: 'memory (nothing survives a restart)',
        dataDir,
        kubeconfig: join(dataDir, 'admin.kubeconfig'),
        authentication: [],
        authorization: ['Node', 'RBAC'],
        insecure: true,
        export: `export KUBECONFIG=${join(dataDir, 'admin.kubeconfig')}`,
      });
      expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(typeof ready.time).toBe('number');
      const r = await fetch(`${String(ready.url)}/api/v1/namespaces`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
    const records = cli
      .stderr()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.msg)).toContain('storage: memory (nothing survives a restart)');
    expect(records.map((r) => r.msg)).toContain('received SIGTERM, shutting down');
    expect(records.filter((r) => r.msg === 'HTTP')).toEqual([]);
  });
});

describe('bad log flags', () => {
  it.each([
    [['--v=abc'], 'invalid argument "abc" for "-v, --v" flag'],
    [['-v', '-1'], "Option '-v' argument is ambiguous"],
    [['--log-format', 'xml'], 'invalid argument "xml" for "--log-format" flag: format xml not supported'],
    [['--logging-format', 'yaml'], 'invalid argument "yaml" for "--log-format" flag'],
    [['--log-format', 'json', '--logging-format', 'text'], '--log-format and --logging-format disagree'],
    [['--no-such-flag'], "Unknown option '--no-such-flag'"],
  ])('%j exits 2 naming the flag', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
