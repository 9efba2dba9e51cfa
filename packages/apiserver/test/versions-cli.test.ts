import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpText, startError as startErrorIn } from './helpers/cli-in-process.js';

/**
 * Versioning flags at start (issue 16; spec doc 1 §9.2, §9.3 rules 6, 9, 10): unknown and locked
 * feature gates, deprecated flags and gates, bad `--runtime-config` keys — each stops the start
 * with one line naming it (exit 2) or warns, before storage is opened.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orchard-versions-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the command line to its exit 2; returns what it wrote to stderr. */
const startError = (args: string[]) => startErrorIn(join(dir, 'data'), args);

/** A flag that fails after the flags before it were read: lets a test see their warnings. */
const failLater = ['--runtime-config', 'nosuch/v1'];

describe('versioning flags at start', () => {
  it.each([
    [
      ['--feature-gates', 'NoSuchGate=true'],
      'invalid argument for --feature-gates: unrecognized feature gate: NoSuchGate',
    ],
    [
      ['--feature-gates', 'APISelfSubjectReview=false'],
      'cannot set feature gate APISelfSubjectReview to false, feature is locked to true',
    ],
    [['--feature-gates', 'WatchList=maybe'], 'strconv.ParseBool: parsing "maybe": invalid syntax'],
    [['--runtime-config', 'nosuch/v1'], 'invalid --runtime-config: invalid key nosuch/v1'],
    [['--runtime-config', 'batch'], 'invalid --runtime-config: invalid key "batch"'],
    [['--runtime-config', 'batch/v1=yes'], 'invalid value of batch/v1: yes'],
    [['--emulated-release', '2.0'], 'invalid --emulated-release 2.0'],
    [['--apiserver-count', '0'], "--apiserver-count should be a positive number, but value '0' provided"],
    [
      ['--service-account-api-audiences', 'a', '--api-audiences', 'b'],
      '--service-account-api-audiences (deprecated) and --api-audiences are both given with different values',
    ],
  ])('refuses %j, naming it', async (args, message) => {
    const err = await startError(args);
    expect(err).toContain(message);
    expect(err.trim().split('\n').at(-1)).toMatch(/^orchard-apiserver: /);
  });

  it('warns when a GA gate is set (rule 10) and when a deprecated flag is used (rule 6)', async () => {
    const err = await startError([
      '--feature-gates',
      'APISelfSubjectReview=true',
      '--apiserver-count',
      '2',
      ...failLater,
    ]);
    // A warning log record (severity W in the text format).
    expect(err).toMatch(
      /^W\d{4} [\d:.]+ Setting GA feature gate APISelfSubjectReview=true\. It will be removed in a future release\.$/m,
    );
    expect(err).toContain(
      'Flag --apiserver-count has been deprecated, apiserver-count is deprecated and will be removed in a future version.',
    );
  });

  it('--warn-deprecated-flags=false silences the deprecated-flag warning (rule 6)', async () => {
    const err = await startError(['--warn-deprecated-flags=false', '--apiserver-count', '2', ...failLater]);
    expect(err).not.toContain('has been deprecated');
    expect(err).toContain('invalid key nosuch/v1');
  });

  it('documents every gate with its stage and default in --help (rule 10)', async () => {
    const out = await helpText();
    expect(out).toContain('APISelfSubjectReview=true|false (GA - default=true, locked)');
    expect(out).toContain('CBORServingAndStorage=true|false (ALPHA - default=false)');
    expect(out).toContain('WatchList=true|false (BETA - default=true)');
    // Deprecated flags are hidden from the help, as pflag hides them.
    expect(out).not.toContain('--apiserver-count');
  });
});
