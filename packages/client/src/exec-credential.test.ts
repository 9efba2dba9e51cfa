import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isClientError } from './errors.js';
import { createExecCredentialProvider, parseExecConfig, parseExecCredential } from './exec-credential.js';
import { loadKubeconfig, resolveConnection } from './kubeconfig.js';
import { createRestClient } from './rest-client.js';

const v1 = 'client.authentication.k8s.io/v1';
let dir: string;

// A credential plugin: counts its runs, records its environment, answers token `tok-<run>` valid for
// $LIFETIME seconds (expired at once when 0; no expirationTimestamp when unset).
const plugin = `#!/bin/sh
n=$(cat "$STATE/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$STATE/count"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$STATE/info-$n"
printf '%s' "$EXTRA_VAR" > "$STATE/extra-$n"
if [ -n "$LIFETIME" ]; then
  exp=$(date -u -d "@$(( $(date +%s) + LIFETIME ))" +%Y-%m-%dT%H:%M:%SZ)
  printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"tok-%s","expirationTimestamp":"%s"}}' "$API" "$n" "$exp"
else
  printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"tok-%s"}}' "$API" "$n"
fi
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'client-exec-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'cred.sh'), plugin);
  chmodSync(join(dir, 'bin', 'cred.sh'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stateDir(): string {
  const s = mkdtempSync(join(dir, 'state-'));
  return s;
}
const runs = (state: string) => Number(readFileSync(join(state, 'count'), 'utf8'));

function execConfig(state: string, over: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  return parseExecConfig(
    {
      apiVersion: v1,
      command: './bin/cred.sh',
      interactiveMode: 'Never',
      env: Object.entries({ STATE: state, API: v1, ...env }).map(([name, value]) => ({ name, value })),
      ...over,
    },
    'u',
    dir,
  );
}

describe('exec config validation (doc 2 §2.7)', () => {
  const rows: [string, unknown, string][] = [
    [
      'command required',
      { apiVersion: v1, interactiveMode: 'Never' },
      'user "u": exec.command: Required value',
    ],
    ['apiVersion required', { command: 'x', interactiveMode: 'Never' }, 'exec.apiVersion: Required value'],
    [
      'apiVersion supported',
      { command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1' },
      'exec.apiVersion: Unsupported value',
    ],
    [
      'interactiveMode required in v1',
      { command: 'x', apiVersion: v1 },
      'exec.interactiveMode: Required value',
    ],
    [
      'interactiveMode values',
      { command: 'x', apiVersion: v1, interactiveMode: 'Sometimes' },
      'exec.interactiveMode: Unsupported value: "Sometimes"',
    ],
    [
      'env entries',
      { command: 'x', apiVersion: v1, interactiveMode: 'Never', env: [{ name: 'A' }] },
      'exec.env[0]: needs a name',
    ],
    [
      'args strings',
      { command: 'x', apiVersion: v1, interactiveMode: 'Never', args: [1] },
      'exec.args: must be a list of strings',
    ],
    ['not an object', 'x', 'exec.: must be an object'],
  ];
  for (const [name, raw, message] of rows) {
    it(name, () => {
      expect(() => parseExecConfig(raw, 'u')).toThrow(message);
    });
  }

  it('v1beta1 defaults interactiveMode to IfAvailable; commands with a / resolve against the kubeconfig dir', () => {
    const c = parseExecConfig(
      { command: './bin/x', apiVersion: 'client.authentication.orch.io/v1beta1' },
      'u',
      '/cfg',
    );
    expect(c.interactiveMode).toBe('IfAvailable');
    expect(c.command).toBe('/cfg/bin/x');
    expect(
      parseExecConfig({ command: 'x', apiVersion: v1, interactiveMode: 'Never' }, 'u', '/cfg').command,
    ).toBe('x');
    expect(
      parseExecConfig({ command: '/abs/x', apiVersion: v1, interactiveMode: 'Never' }, 'u', '/cfg').command,
    ).toBe('/abs/x');
  });
});

describe('ExecCredential output', () => {
  const ok = (status: unknown, apiVersion = v1) =>
    JSON.stringify({ apiVersion, kind: 'ExecCredential', status });
  it('token, certificate pair, expiry', () => {
    expect(parseExecCredential(ok({ token: 't', expirationTimestamp: '2030-01-01T00:00:00Z' }), v1)).toEqual({
      token: 't',
      expiresAt: Date.parse('2030-01-01T00:00:00Z'),
    });
    expect(parseExecCredential(ok({ clientCertificateData: 'C', clientKeyData: 'K' }), v1)).toEqual({
      cert: 'C',
      key: 'K',
    });
  });
  const rows: [string, string, string][] = [
    ['not JSON', '{', 'exec: decoding stdout'],
    [
      'wrong kind',
      JSON.stringify({ apiVersion: v1, kind: 'Other', status: { token: 't' } }),
      'kind is not ExecCredential',
    ],
    [
      'other version',
      ok({ token: 't' }, 'client.authentication.k8s.io/v1beta1'),
      `exec plugin is configured to use API version ${v1}, plugin returned version client.authentication.k8s.io/v1beta1`,
    ],
    ['no status', JSON.stringify({ apiVersion: v1, kind: 'ExecCredential' }), "didn't return a status field"],
    ['nothing in status', ok({}), "didn't return a token or cert/key pair"],
    ['certificate without key', ok({ clientCertificateData: 'C' }), 'only certificate or key, not both'],
    ['bad expiry', ok({ token: 't', expirationTimestamp: 'soon' }), 'bad expirationTimestamp'],
    [
      '__proto__ status',
      `{"apiVersion":"${v1}","kind":"ExecCredential","__proto__":{"status":{"token":"x"}}}`,
      "didn't return a status field",
    ],
  ];
  for (const [name, out, message] of rows) {
    it(name, () => {
      expect(() => parseExecCredential(out, v1)).toThrow(message);
    });
  }
});

describe('running the plugin', () => {
  it('passes env and KUBERNETES_EXEC_INFO (cluster with provideClusterInfo), caches until expiry', async () => {
    const state = stateDir();
    const cluster = {
      server: 'https://x:6443',
      'certificate-authority-data': 'Q0E=',
      config: { region: 'eu' },
    };
    const p = createExecCredentialProvider(
      execConfig(state, { provideClusterInfo: true }, { EXTRA_VAR: 'hello', LIFETIME: '3600' }),
      {
        cluster,
        stdinIsTerminal: false,
      },
    );
    const a = await p.get();
    expect(a.token).toBe('tok-1');
    expect((await p.get()).token).toBe('tok-1');
    expect(runs(state)).toBe(1);
    expect(JSON.parse(readFileSync(join(state, 'info-1'), 'utf8'))).toEqual({
      apiVersion: v1,
      kind: 'ExecCredential',
      spec: { cluster, interactive: false },
    });
    expect(readFileSync(join(state, 'extra-1'), 'utf8')).toBe('hello');
    // a 401 with these credentials runs it again, once for concurrent callers
    const [b, c] = await Promise.all([p.refresh(a), p.refresh(a)]);
    expect(b.token).toBe('tok-2');
    expect(c.token).toBe('tok-2');
    expect(runs(state)).toBe(2);
  });

  it('without provideClusterInfo there is no cluster; an expired credential is replaced', async () => {
    const state = stateDir();
    const p = createExecCredentialProvider(execConfig(state, {}, { LIFETIME: '0' }), {
      stdinIsTerminal: false,
    });
    expect((await p.get()).token).toBe('tok-1');
    expect((await p.get()).token).toBe('tok-2');
    expect(JSON.parse(readFileSync(join(state, 'info-1'), 'utf8')).spec).toEqual({ interactive: false });
  });

  it('interactiveMode: Always needs a terminal; IfAvailable uses one when present; Never never', async () => {
    const state = stateDir();
    await expect(
      createExecCredentialProvider(execConfig(state, { interactiveMode: 'Always' }), {
        stdinIsTerminal: false,
      }).get(),
    ).rejects.toThrow('standard input is not a terminal');
    await createExecCredentialProvider(execConfig(state, { interactiveMode: 'Never' }), {
      stdinIsTerminal: true,
    }).get();
    expect(JSON.parse(readFileSync(join(state, 'info-1'), 'utf8')).spec.interactive).toBe(false);
    await createExecCredentialProvider(execConfig(state, { interactiveMode: 'IfAvailable' }), {
      stdinIsTerminal: false,
    }).get();
    expect(JSON.parse(readFileSync(join(state, 'info-2'), 'utf8')).spec.interactive).toBe(false);
  });

  it('a missing command shows the installHint; a failing or hanging one is an error', async () => {
    const missing = parseExecConfig(
      {
        command: 'orchard-no-such-plugin',
        apiVersion: v1,
        interactiveMode: 'Never',
        installHint: 'install it with: brew install cred',
      },
      'u',
    );
    const e = await createExecCredentialProvider(missing)
      .get()
      .catch((x: unknown) => x);
    expect(isClientError(e, 'InvalidConfig')).toBe(true);
    expect((e as Error).message).toBe(
      'exec: executable orchard-no-such-plugin not found\n\ninstall it with: brew install cred',
    );
    const failing = parseExecConfig(
      { command: 'sh', args: ['-c', 'exit 3'], apiVersion: v1, interactiveMode: 'Never' },
      'u',
    );
    await expect(createExecCredentialProvider(failing, { stderr: 'ignore' }).get()).rejects.toThrow(
      'exec: executable sh failed with exit code 3',
    );
    const flood = parseExecConfig({ command: 'yes', apiVersion: v1, interactiveMode: 'Never' }, 'u');
    await expect(createExecCredentialProvider(flood, { maxOutputBytes: 64 * 1024 }).get()).rejects.toThrow(
      'exec: executable yes wrote more than 65536 bytes',
    );
    const hanging = parseExecConfig(
      { command: 'sleep', args: ['30'], apiVersion: v1, interactiveMode: 'Never' },
      'u',
    );
    await expect(createExecCredentialProvider(hanging, { timeoutMs: 200 }).get()).rejects.toThrow(
      'did not finish within 200 ms',
    );
  });
});

describe('rest client with an exec plugin', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('a kubeconfig with a relative plugin path drives the client; a 401 refreshes and retries once', async () => {
    const state = stateDir();
    const seen: string[] = [];
    // The server accepts only the second token the plugin hands out: the first is "revoked".
    server = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      const ok = req.headers.authorization === 'Bearer tok-2';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          ok
            ? { kind: 'NamespaceList', items: [] }
            : { kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
        ),
      );
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const kc = join(dir, 'exec.kubeconfig');
    writeFileSync(
      kc,
      `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: http://127.0.0.1:${port}
    extensions:
    - name: client.authentication.k8s.io/exec
      extension: {audience: orchard}
users:
- name: u
  user:
    exec:
      apiVersion: ${v1}
      command: ./bin/cred.sh
      interactiveMode: Never
      provideClusterInfo: true
      env:
      - {name: STATE, value: ${state}}
      - {name: API, value: ${v1}}
      - {name: LIFETIME, value: "3600"}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`,
    );
    const client = createRestClient(resolveConnection(loadKubeconfig(kc)));
    expect(await client.json({ path: '/api/v1/namespaces' })).toEqual({ kind: 'NamespaceList', items: [] });
    expect(seen).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(JSON.parse(readFileSync(join(state, 'info-1'), 'utf8')).spec.cluster).toEqual({
      server: `http://127.0.0.1:${port}`,
      config: { audience: 'orchard' },
    });
    // cached: no new run
    await client.json({ path: '/api/v1/namespaces' });
    expect(runs(state)).toBe(2);
    // still 401 after the one retry: the error reaches the caller, no loop
    const state2 = stateDir();
    const other = createRestClient({
      server: `http://127.0.0.1:${port}`,
      exec: execConfig(state2, {}, { LIFETIME: '3600' }),
    });
    writeFileSync(join(state2, 'count'), '5');
    const e = await other.json({ path: '/api/v1/namespaces' }).catch((x: unknown) => x);
    expect(isClientError(e, 'Status') && e.status).toBe(401);
    expect(runs(state2)).toBe(7);
  });
});

describe('kubeconfig token users', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('token wins over tokenFile; a tokenFile is read again after a minute (rotation)', async () => {
    const seen: string[] = [];
    server = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const tokenPath = join(dir, 'token');
    writeFileSync(tokenPath, 'first\n');
    const kc = (user: string) => {
      const p = join(dir, `tf-${Math.random().toString(36).slice(2)}.kubeconfig`);
      writeFileSync(
        p,
        `clusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:${port}"}\nusers:\n- name: u\n  user: ${user}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
      );
      return p;
    };
    const both = createRestClient(resolveConnection(loadKubeconfig(kc('{token: inline, tokenFile: token}'))));
    await both.json({ path: '/x' });
    expect(seen.at(-1)).toBe('Bearer inline');

    vi.useFakeTimers({ toFake: ['Date'] });
    const fromFile = createRestClient(resolveConnection(loadKubeconfig(kc('{tokenFile: token}'))));
    await fromFile.json({ path: '/x' });
    expect(seen.at(-1)).toBe('Bearer first');
    writeFileSync(tokenPath, 'second\n');
    await fromFile.json({ path: '/x' });
    expect(seen.at(-1)).toBe('Bearer first');
    vi.setSystemTime(Date.now() + 61_000);
    await fromFile.json({ path: '/x' });
    expect(seen.at(-1)).toBe('Bearer second');
  });
});
