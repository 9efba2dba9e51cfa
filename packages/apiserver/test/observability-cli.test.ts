import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startError as startErrorIn } from './helpers/cli-in-process.js';

/**
 * The observability flags at start (issue 16 items 6–8): a bad value or a malformed audit policy
 * stops the start with one line naming the flag, or the file and field, before storage is opened.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orchard-obs-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the command line to its exit 2; returns what it wrote to stderr. */
const startError = (args: string[]) => startErrorIn(join(dir, 'data'), args);

describe('observability flags', () => {
  it('refuses a malformed audit policy, naming the file and the field', async () => {
    const file = join(dir, 'policy.yaml');
    await writeFile(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Verbose\n');
    const err = await startError([
      '--flavor',
      'kubernetes',
      '--audit-policy-file',
      file,
      '--audit-log-path',
      '-',
    ]);
    expect(err).toContain(
      `${file}: rules[0].level: Unsupported value: "Verbose": supported values: "None", "Metadata", "Request", "RequestResponse"`,
    );
  });

  it.each([
    ['wrong types', 'rules: {level: Metadata}\n', 'rules: Invalid value'],
    ['a wrongly typed level', 'rules:\n  - level: [Metadata]\n', 'rules[0].level'],
    [
      'a __proto__ key',
      'rules:\n  - level: Metadata\n    __proto__: {users: [x]}\n',
      'rules[0].__proto__: unknown field',
    ],
    ['a constructor key', 'constructor: {}\nrules: []\n', 'constructor: unknown field'],
  ])('refuses an audit policy with %s, naming the file and field', async (_what, body, message) => {
    const file = join(dir, 'bad-policy.yaml');
    await writeFile(file, `apiVersion: audit.orch.io/v1\nkind: Policy\n${body}`);
    const err = await startError(['--audit-policy-file', file, '--audit-log-path', '-']);
    expect(err).toContain(`${file}: `);
    expect(err).toContain(message);
  });

  it('refuses a huge audit policy by its size, before reading it', async () => {
    const file = join(dir, 'huge-policy.yaml');
    await writeFile(file, `apiVersion: audit.orch.io/v1\nkind: Policy\n#${'x'.repeat(2 << 20)}\n`);
    const err = await startError(['--audit-policy-file', file, '--audit-log-path', '-']);
    expect(err).toContain(`${file}: larger than 1048576 bytes`);
  });

  it.each([
    [['--audit-log-path', '-'], '--audit-log-path needs --audit-policy-file'],
    [
      ['--audit-policy-file', '/nonexistent/p.yaml', '--audit-log-path', '-'],
      '--audit-policy-file /nonexistent/p.yaml: cannot read',
    ],
    [
      ['--audit-policy-file', '/x', '--audit-log-path', '-', '--audit-log-maxsize', '10'],
      '--audit-log-maxsize and --audit-log-maxbackup apply to an --audit-log-path file only',
    ],
    [
      ['--show-hidden-metrics-for-version', '1.29'],
      "invalid --show-hidden-metrics-for-version 1.29: must be omitted or have the value '1.31'",
    ],
    [['--livez-grace-period', 'soon'], 'invalid --livez-grace-period soon'],
  ])('refuses %j', async (args, message) => {
    expect(await startError(args)).toContain(message);
  });
});
