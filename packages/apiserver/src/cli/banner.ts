import { join } from 'node:path';
import type { CliOptions } from './cli-options.js';
import type { CliServer } from './start-up.js';

/**
 * What a started server tells its operator: certificates and authentication notes on stderr; the
 * authentication methods, the URL and the kubeconfig path on stdout (scripts read these lines).
 */
export function printBanner(cli: CliOptions, { launched, authn }: CliServer): void {
  const info = (m: string) => process.stderr.write(`${m}\n`);
  if (launched.tlsDir)
    info(
      `certificates in ${join(cli.dataDir, 'tls')}: CA ${launched.tlsDir.ca}, serving ${launched.tlsDir.serving}, admin ${launched.tlsDir.admin}`,
    );
  for (const note of authn?.notes ?? []) info(note);
  process.stdout.write(
    `authentication: ${launched.server.authentication?.methods.join(', ') ?? 'none (insecure HTTP: every request is the admin)'}\n`,
  );
  process.stdout.write(`listening on ${launched.url}\n`);
  process.stdout.write(`kubeconfig written to ${cli.kubeconfigOut}\n`);
}
