import { expect, vi } from 'vitest';
import { main } from '../../src/cli.js';

/** What `orchard-apiserver --help` prints (its `main` run in this process). */
export async function helpText(): Promise<string> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await main(['--help']);
  } finally {
    spy.mockRestore();
  }
  return out;
}

/**
 * Runs the command line in this process (memory storage, data under `dataDir`) to its exit 2, which
 * it must reach; returns what it wrote to stderr.
 */
export async function startError(dataDir: string, args: string[]): Promise<string> {
  let err = '';
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`exit ${String(code)}`);
  });
  try {
    await expect(main(['--storage', 'memory', '--data-dir', dataDir, ...args])).rejects.toThrow('exit 2');
  } finally {
    write.mockRestore();
    exit.mockRestore();
  }
  return err;
}
