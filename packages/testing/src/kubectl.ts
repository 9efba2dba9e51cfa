import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The kubeconfig, cache directory, timeout, standard input and binary of one kubectl run. */
export interface KubectlOptions {
  /** Path of the kubeconfig to use (the test server's `kubeconfigPath`). */
  readonly kubeconfig: string;
  /** Discovery/HTTP cache directory; default: one temp directory per kubeconfig path. */
  readonly cacheDir?: string;
  /** Kill after this many milliseconds (default 20 000). */
  readonly timeoutMs?: number;
  /** Standard input. */
  readonly input?: string;
  /** The kubectl binary (default `KUBECTL` env or /usr/bin/kubectl). */
  readonly binary?: string;
}

/** Exit code, stdout and stderr of a kubectl run. */
export interface KubectlResult {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when killed by the timeout. */
  readonly code: number | null;
}

const cacheDirs = new Map<string, string>();

/** The temporary cache directories go when the process exits. */
function removeCacheDirs(): void {
  for (const dir of cacheDirs.values()) rmSync(dir, { recursive: true, force: true });
  cacheDirs.clear();
}

/** The kubectl binary tests run: `KUBECTL` from the environment, else `/usr/bin/kubectl`. */
export function kubectlBinary(): string {
  return process.env.KUBECTL ?? '/usr/bin/kubectl';
}

/** True when a kubectl binary is installed (tests that need it skip with this reason otherwise). */
export function kubectlAvailable(binary = kubectlBinary()): boolean {
  return existsSync(binary);
}

/** Runs kubectl against a server with only the given kubeconfig (no ambient config). */
export function kubectl(args: readonly string[], options: KubectlOptions): Promise<KubectlResult> {
  let cacheDir = options.cacheDir ?? cacheDirs.get(options.kubeconfig);
  if (!cacheDir) {
    cacheDir = mkdtempSync(join(tmpdir(), 'orchard-kubectl-cache-'));
    if (cacheDirs.size === 0) process.once('exit', removeCacheDirs);
    cacheDirs.set(options.kubeconfig, cacheDir);
  }
  const binary = options.binary ?? kubectlBinary();
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      [`--kubeconfig=${options.kubeconfig}`, `--cache-dir=${cacheDir}`, ...args],
      {
        timeout: options.timeoutMs ?? 20_000,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cacheDir, KUBECONFIG: options.kubeconfig },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : error.killed ? null : 1) : 0;
        resolve({ stdout: String(stdout), stderr: String(stderr), code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
