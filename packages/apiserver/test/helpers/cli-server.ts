import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The CLI as users start it (the package's bin), run as a child process. */
export const cliBin = join(import.meta.dirname, '..', '..', 'bin', 'orchard-apiserver.mjs');

export interface CliResponse {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

export interface CliServer {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything the server wrote to stdout so far (the start banner). */
  stdout(): string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** One HTTPS request as the admin, with the CA and client certificate of the written kubeconfig. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<CliResponse>;
  /** Opens a watch and collects its JSON lines until `close()` or the server ends it. */
  watch(path: string): Promise<{ status: number; events: WatchLine[]; ended: Promise<void>; close(): void }>;
  /** SIGTERM, resolving with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, resolving once the process is gone. */
  kill9(): Promise<void>;
  readonly exited: Promise<number | null>;
}

export interface WatchLine {
  type: string;
  object: { metadata?: { name?: string; resourceVersion?: string }; code?: number; [k: string]: unknown };
}

interface Kubeconfig {
  clusters: { cluster: { 'certificate-authority-data'?: string } }[];
  users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

/** A CLI process (the package's bin) and what it printed so far. */
export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stdout so far. */
  stdout(): string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Its exit code; undefined while it runs. */
  exitCode(): number | null | undefined;
  readonly exited: Promise<number | null>;
}

/** Spawns `orchard-apiserver …args` as users run it, collecting its output. */
export function spawnCli(args: readonly string[]): CliProcess {
  const child = spawn(process.execPath, [cliBin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let code: number | null | undefined;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (c) => {
      code = c;
      r(c);
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exitCode: () => code, exited };
}

/** Waits (polling every 50 ms, at most `ms`) until `until` is in `p`'s stdout or `p` exits. */
export async function waitForCliOutput(p: CliProcess, until: string | undefined, ms: number): Promise<void> {
  for (let i = 0; i < ms / 50 && p.exitCode() === undefined && !(until && p.stdout().includes(until)); i++)
    await new Promise((r) => setTimeout(r, 50));
}

/**
 * Starts `orchard-apiserver --port 0 …args` and waits (bounded, 30 s) for its `listening on` line.
 * Rejects with the server's stderr when it exits first.
 */
export async function startCliServer(args: readonly string[], kubeconfigPath: string): Promise<CliServer> {
  const p = spawnCli(['--port', '0', '--kubeconfig-out', kubeconfigPath, ...args]);
  const { child, exited } = p;
  await waitForCliOutput(p, 'kubeconfig written', 30_000);
  const out = p.stdout();
  const m = /listening on (https:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
  if (!m || !out.includes('kubeconfig written')) {
    child.kill('SIGKILL');
    throw new Error(`the server did not start (exit ${String(p.exitCode())}): ${out}\n${p.stderr()}`);
  }
  const url = m[1] as string;
  const kc = parse(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString();
  const agent = new Agent({
    ca: b64(kc.clusters[0]?.cluster['certificate-authority-data']),
    cert: b64(kc.users[0]?.user['client-certificate-data']),
    key: b64(kc.users[0]?.user['client-key-data']),
    keepAlive: true,
    maxSockets: 64,
  });
  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<CliResponse>((resolve, reject) => {
      const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = httpsRequest(
        `${url}${path}`,
        {
          method,
          agent,
          headers: {
            ...(data === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, text, json });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(data);
    });
  const watch: CliServer['watch'] = (path) =>
    new Promise((resolve, reject) => {
      const events: WatchLine[] = [];
      const req = httpsRequest(`${url}${path}`, { agent }, (res) => {
        let buf = '';
        const ended = new Promise<void>((r) => {
          res.on('end', () => r());
          res.on('close', () => r());
          res.on('error', () => r());
        });
        res.on('data', (c: Buffer) => {
          buf += c.toString();
          for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
            const line = buf.slice(0, i).trim();
            buf = buf.slice(i + 1);
            if (line) events.push(JSON.parse(line) as WatchLine);
          }
        });
        resolve({ status: res.statusCode ?? 0, events, ended, close: () => req.destroy() });
      });
      req.on('error', (e) => {
        if (!req.destroyed) reject(e);
      });
      req.end();
    });
  return {
    url,
    child,
    exited,
    stdout: p.stdout,
    stderr: p.stderr,
    request,
    watch,
    async stop() {
      agent.destroy();
      if (p.exitCode() === undefined) child.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      agent.destroy();
      if (p.exitCode() === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs the CLI to its exit (bounded, 30 s): for start-up errors. */
export async function runCli(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnCli(args);
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 30_000);
  const code = await p.exited;
  clearTimeout(timer);
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/**
 * POSTs a SelfSubjectReview of `group` (`authentication.<domain>`) to the server at `url` over HTTPS
 * trusting `ca`, with an optional client certificate and headers; resolves with the response body.
 */
export function postSelfSubjectReview(
  url: string,
  group: string,
  options: { ca: string; cert?: string; key?: string; headers?: Record<string, string> },
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    httpsRequest(
      `${url}/apis/${group}/v1/selfsubjectreviews`,
      { method: 'POST', ...options, headers: { 'content-type': 'application/json', ...options.headers } },
      (res) => {
        let b = '';
        res.on('data', (d: Buffer) => {
          b += d.toString();
        });
        res.on('end', () => resolve(b));
      },
    )
      .on('error', reject)
      .end(JSON.stringify({ apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' }));
  });
}
