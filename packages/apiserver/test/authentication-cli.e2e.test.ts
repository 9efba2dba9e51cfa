import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { flavors } from './helpers/auth-server.js';
import { postSelfSubjectReview, spawnCli, waitForCliOutput } from './helpers/cli-server.js';

/** Runs the CLI until `until` shows in stdout (or it exits); returns its output and exit code. */
async function run(args: string[], until?: string) {
  const cli = spawnCli(args);
  await waitForCliOutput(cli, until, 20_000);
  return {
    get out() {
      return cli.stdout();
    },
    get err() {
      return cli.stderr();
    },
    exited: cli.exited,
    stop: () => cli.child.kill('SIGTERM'),
  };
}

/** The CLI's authentication: start-up errors naming file and line, the printed methods, generated files. */
describe('orchard-apiserver authentication flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchard-authn-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a broken token file stops the start with exit code 2 naming the file and line', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'good,user,1\n"unterminated,user,2\n');
    const r = await run(['--storage', 'memory', '--data-dir', join(dir, 'd0'), '--token-auth-file', file]);
    expect(await r.exited).toBe(2);
    expect(r.err).toContain(`${file}:2: malformed CSV (unterminated quote)`);
  });

  it('an --oidc-issuer-url over http stops the start, naming the flag', async () => {
    const r = await run([
      '--storage',
      'memory',
      '--data-dir',
      join(dir, 'd1'),
      '--oidc-issuer-url',
      'http://issuer.example',
      '--oidc-client-id',
      'x',
    ]);
    expect(await r.exited).not.toBe(0);
    expect(r.err).toContain('--oidc-issuer-url: Invalid value: "http://issuer.example": must use https');
  });

  it.each(flavors)(
    'prints the methods, keeps its signing key across restarts, serves a static token and the admin certificate ($name flavor)',
    async (flavor) => {
      const data = join(dir, `d2-${flavor.name}`);
      const tokens = join(dir, 'tokens.csv');
      writeFileSync(tokens, 'cli-token,jane,uid-1,"dev,ops"\n');
      const args = ['--port', '0', '--flavor', flavor.name, '--storage', 'memory', '--data-dir', data];
      const authn = flavor.group('authentication');
      const first = await run(
        [...args, '--token-auth-file', tokens, '--enable-bootstrap-token-auth'],
        'kubeconfig written',
      );
      try {
        expect(first.out).toContain(
          'authentication: x509, token-file, service-account, bootstrap-token, anonymous',
        );
        expect(first.err).toContain(
          `generated a service-account signing key at ${join(data, 'service-account-signing.key')}`,
        );
        expect(statSync(join(data, 'service-account-signing.key')).mode & 0o777).toBe(0o600);
        expect(readFileSync(join(data, 'static-tokens.example.csv'), 'utf8')).toContain(',jane,jane-uid,');
        const url = /listening on (\S+)/.exec(first.out)?.[1] as string;
        const kc = parse(readFileSync(join(data, 'admin.kubeconfig'), 'utf8'));
        const ca = Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
        const whoami = (options: { headers?: Record<string, string>; cert?: string; key?: string }) =>
          postSelfSubjectReview(url, authn, { ca, ...options });
        const body = await whoami({ headers: { authorization: 'Bearer cli-token' } });
        expect(JSON.parse(body).status.userInfo).toEqual({
          username: 'jane',
          uid: 'uid-1',
          groups: ['dev', 'ops', 'system:authenticated'],
        });
        // The admin kubeconfig's client certificate is in system:masters.
        const user = kc.users[0].user;
        const admin = await whoami({
          cert: Buffer.from(user['client-certificate-data'], 'base64').toString(),
          key: Buffer.from(user['client-key-data'], 'base64').toString(),
        });
        expect(JSON.parse(admin).status.userInfo).toEqual({
          username: 'admin',
          groups: ['system:masters', 'system:authenticated'],
        });
      } finally {
        first.stop();
      }
      expect(await first.exited).toBe(0);
      const key = readFileSync(join(data, 'service-account-signing.key'), 'utf8');
      const second = await run([...args, '--anonymous-auth=false'], 'kubeconfig written');
      try {
        expect(second.err).toContain('reusing the service-account signing key');
        expect(second.out).toContain('authentication: x509, service-account\n');
      } finally {
        second.stop();
      }
      expect(await second.exited).toBe(0);
      expect(readFileSync(join(data, 'service-account-signing.key'), 'utf8')).toBe(key);
      // Two CLI starts and stops: room for a loaded machine, as the other CLI restart tests have.
    },
    90_000,
  );
});
