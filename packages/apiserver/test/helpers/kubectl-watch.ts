import { type ChildProcess, spawn } from 'node:child_process';
import { kubectlBinary } from '@orchard/testing';
import { expect } from 'vitest';

/** A running `kubectl … -w`: its output so far, a bounded wait for a pattern, its exit, and stop(). */
export interface KubectlWatch {
  readonly child: ChildProcess;
  /** Standard output so far. */
  out(): string;
  /** Waits (at most 20 s) until the output matches; fails the test otherwise. */
  until(pattern: RegExp): Promise<void>;
  /** Waits (at most 20 s) for kubectl to exit; throws if it is still running. */
  exit(): Promise<{ code: number | null; stderr: string }>;
  stop(): void;
}

/** Starts kubectl with `args` (a long-running watch) against a kubeconfig, with its own cache directory. */
export function spawnKubectl(args: readonly string[], kubeconfig: string, cacheDir: string): KubectlWatch {
  const child = spawn(kubectlBinary(), [`--kubeconfig=${kubeconfig}`, `--cache-dir=${cacheDir}`, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cacheDir },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    out: () => out,
    async until(pattern) {
      for (let i = 0; i < 400 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      expect(out, err).toMatch(pattern);
    },
    async exit() {
      const code = await Promise.race([
        exited,
        new Promise<'running'>((r) => setTimeout(() => r('running'), 20_000)),
      ]);
      if (code === 'running') throw new Error(`kubectl ${args.join(' ')} did not exit: ${out}${err}`);
      return { code, stderr: err };
    },
    stop: () => child.kill(),
  };
}
