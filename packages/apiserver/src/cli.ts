import { printBanner } from './cli/banner.js';
import { readCliOptions } from './cli/cli-options.js';
import { resolveDeprecatedFlags } from './cli/deprecated-flags.js';
import { type CliFlagValues, parseCliArgs } from './cli/flags.js';
import { type CliLogger, createCliLogger, readLogSettings } from './cli/logging.js';
import { startFromCommandLine } from './cli/start-up.js';
import { cliUsage } from './cli/usage.js';

export { parseTlsSans } from './cli/flags.js';

/**
 * The `orchard-apiserver` command: parses and checks the flags (`cli/flags.ts`, `cli/cli-options.ts`),
 * starts storage and the server (`cli/start-up.ts`), prints where it listens (`cli/banner.ts`) and
 * shuts down on SIGINT/SIGTERM. A bad flag or file exits 2 with one line naming it; a start-up
 * failure (storage, certificates, listening) exits 1.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let values: CliFlagValues;
  try {
    values = parseCliArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${cliUsage}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(cliUsage);
    return;
  }
  const fail = (msg: string): never => {
    process.stderr.write(`orchard-apiserver: ${msg}\n`);
    process.exit(2);
  };
  let log: CliLogger;
  try {
    log = createCliLogger(readLogSettings(values));
  } catch (e) {
    return fail((e as Error).message);
  }
  // Deprecated flags warn and are read as their replacements (spec doc 1 §9.3 rules 6, 7).
  try {
    const resolved = resolveDeprecatedFlags(values);
    for (const w of resolved.warnings) log.warn(w);
    values = resolved.values;
  } catch (e) {
    return fail((e as Error).message);
  }
  const cli = readCliOptions(values, fail, (m) => log.warn(m));
  const started = await startFromCommandLine(values, cli, log, fail, startFailed);
  printBanner(cli, started, log);
  const { launched, storage } = started;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal does not wait for the drain.
      log.warn(`received ${signal} again, exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    log.info(`received ${signal}, shutting down`);
    launched
      .stop()
      .then(() => storage.store.close())
      .then(
        () => {
          log.info('shutdown complete');
          process.exit(0);
        },
        (e) => {
          log.error('shutdown failed', e);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** A start-up error (storage, certificates, listening): one line naming what failed, exit status 1. */
function startFailed(e: unknown): never {
  process.stderr.write(`orchard-apiserver: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}

const invokedDirectly = process.argv[1] !== undefined && /cli\.(ts|js|mjs)$/.test(process.argv[1]);
if (invokedDirectly) {
  main().catch((e) => {
    process.stderr.write(`orchard-apiserver: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
