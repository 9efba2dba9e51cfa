import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectlAvailable } from '@orchard/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from './helpers/cli-server.js';

/**
 * `orchard-apiserver --encryption-provider-config` with stock kubectl (`--flavor kubernetes`, the
 * config in `apiserver.config.k8s.io/v1`) on the durable default: the SQLite files never hold the
 * Secret, kubectl reads it back, and after a rotation `kubectl get secrets -o json | kubectl
 * replace -f -` re-encrypts every Secret with the new key (proved by a restart with the old key gone).
 */
const root = mkdtempSync(join(tmpdir(), 'orchard-encryption-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const key1 = Buffer.alloc(32, 0x31).toString('base64');
const key2 = Buffer.alloc(16, 0x32).toString('base64');
const marker = 'kubectl-plaintext-5b1e';

function writeConfig(path: string, providers: string): void {
  writeFileSync(
    path,
    `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
${providers}`,
    { mode: 0o600 },
  );
}

// Each test starts the CLI (tsx) one to three times: generous bounds on a loaded machine.
describe.skipIf(!kubectlAvailable())(
  'encryption at rest with kubectl (CLI, --data-dir)',
  { timeout: 240_000 },
  () => {
    const dataDir = join(root, 'data');
    const configPath = join(root, 'encryption.yaml');
    const kubeconfig = join(root, 'admin.kubeconfig');
    const args = [
      '--flavor',
      'kubernetes',
      '--data-dir',
      dataDir,
      '--encryption-provider-config',
      configPath,
    ];
    const k = (a: string[], input?: string) =>
      kubectl(a, { kubeconfig, ...(input === undefined ? {} : { input }) });

    it('kubectl create and get a Secret; the database files hold no trace of its value', async () => {
      writeConfig(
        configPath,
        `      - secretbox: {keys: [{name: key1, secret: ${key1}}]}\n      - identity: {}\n`,
      );
      const api = await startCliServer(args, kubeconfig);
      try {
        expect(api.stderr()).toContain('encryption at rest: secrets → secretbox(key1), identity');
        const created = await k(['create', 'secret', 'generic', 's1', `--from-literal=password=${marker}`]);
        expect(created.stderr).toBe('');
        const got = await k(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
        expect(Buffer.from(got.stdout, 'base64').toString()).toBe(marker);
        expect((await k(['create', 'configmap', 'c1', `--from-literal=note=${marker}`])).code).toBe(0);
      } finally {
        expect(await api.stop()).toBe(0);
      }
      const bytes = Buffer.concat(
        readdirSync(dataDir)
          .filter((f) => f.startsWith('orchard.sqlite'))
          .map((f) => readFileSync(join(dataDir, f))),
      );
      expect(bytes.includes(marker)).toBe(true); // the ConfigMap, not encrypted: the grep does find values
      expect(bytes.includes(Buffer.from(marker).toString('base64'))).toBe(false);
      expect(bytes.includes('k8s:enc:secretbox:v1:key1:')).toBe(true);
    });

    it('rotation: key2 first, `get -o json | replace -f -` re-encrypts; a restart without key1 still reads it', async () => {
      writeConfig(
        configPath,
        `      - aesgcm: {keys: [{name: key2, secret: ${key2}}]}\n      - secretbox: {keys: [{name: key1, secret: ${key1}}]}\n`,
      );
      let api = await startCliServer(args, kubeconfig);
      try {
        const rv = (await k(['get', 'secret', 's1', '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
        const all = await k(['get', 'secrets', '-o', 'json']);
        const replaced = await k(['replace', '-f', '-'], all.stdout);
        expect(replaced.stderr).toBe('');
        expect(replaced.stdout).toContain('secret/s1 replaced');
        const after = (await k(['get', 'secret', 's1', '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
        expect(Number(after)).toBeGreaterThan(Number(rv));
      } finally {
        expect(await api.stop()).toBe(0);
      }
      writeConfig(configPath, `      - aesgcm: {keys: [{name: key2, secret: ${key2}}]}\n`);
      api = await startCliServer(args, kubeconfig);
      try {
        const got = await k(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
        expect(got.stderr).toBe('');
        expect(Buffer.from(got.stdout, 'base64').toString()).toBe(marker);
      } finally {
        expect(await api.stop()).toBe(0);
      }
    });
  },
);

describe('--encryption-provider-config start-up errors', { timeout: 120_000 }, () => {
  it.each([
    [
      `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: [{resources: [secrets], providers: [{aesgcm: {keys: [{name: k, secret: ${Buffer.alloc(20).toString('base64')}}]}}]}]\n`,
      'resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 20, expected one of [16 24 32]',
    ],
    [
      'apiVersion: apiserver.config.orch.io/v1\nkind: EncryptionConfiguration\nresources: [{resources: [secrets], providers: [{identity: {}}]}]\n',
      'apiVersion: Unsupported value: "apiserver.config.orch.io/v1": supported values: "apiserver.config.k8s.io/v1"',
    ],
  ])('a bad file: exit 2 naming the file and the field, nothing written (%#)', async (text, message) => {
    const dir = join(root, `bad-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const file = join(dir, 'enc.yaml');
    writeFileSync(file, text);
    const r = await runCli([
      '--flavor',
      'kubernetes',
      '--data-dir',
      join(dir, 'data'),
      '--encryption-provider-config',
      file,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--encryption-provider-config: ${file}: ${message}`);
    expect(r.stderr).not.toContain('AAAAAAAAAAAA');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('a missing file: exit 2 naming it', async () => {
    const r = await runCli([
      '--data-dir',
      join(root, 'unused'),
      '--encryption-provider-config',
      join(root, 'nope.yaml'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--encryption-provider-config: cannot read ${join(root, 'nope.yaml')}: ENOENT`,
    );
  });
});
