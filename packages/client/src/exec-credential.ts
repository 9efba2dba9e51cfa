import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { ClientError } from './errors.js';

/** `interactiveMode` of a credential plugin (doc 2 §2.7). */
export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

/** A kubeconfig user's `exec` section, validated, the command resolved. */
export interface ExecConfig {
  /** The program: absolute, resolved against the kubeconfig's directory when it has a `/`, else looked up on PATH. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  /** `client.authentication.<domain>/v1` or `/v1beta1`; the plugin's answer must use the same. */
  readonly apiVersion: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: ExecInteractiveMode;
}

/** What `KUBERNETES_EXEC_INFO` carries in `spec.cluster` when `provideClusterInfo` is on. */
export interface ExecClusterInfo {
  readonly server: string;
  readonly 'certificate-authority-data'?: string;
  readonly 'insecure-skip-tls-verify'?: boolean;
  readonly 'tls-server-name'?: string;
  readonly 'proxy-url'?: string;
  /** The cluster's `client.authentication.<domain>/exec` extension. */
  readonly config?: unknown;
}

/** Credentials a plugin returned. */
export interface ExecCredentials {
  readonly token?: string;
  /** PEM client certificate (may include intermediates) and key. */
  readonly cert?: string;
  readonly key?: string;
  /** `status.expirationTimestamp` as epoch ms; absent = until a 401 or exit. */
  readonly expiresAt?: number;
}

/** The API groups of ExecCredential this client speaks, per flavor. */
export const execApiGroups = Object.freeze(['client.authentication.k8s.io', 'client.authentication.orch.io']);
const versions = ['v1', 'v1beta1'];
const modes: readonly ExecInteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

function invalid(user: string, field: string, message: string): ClientError {
  return new ClientError('InvalidConfig', 0, `user "${user}": exec.${field}: ${message}`);
}

/** Validates `users[].user.exec` (doc 2 §2.7). Throws `ClientError('InvalidConfig')` naming user and field. */
export function parseExecConfig(raw: unknown, userName: string, baseDir?: string): ExecConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(userName, '', 'must be an object');
  const r = raw as Record<string, unknown>;
  const own = (k: string) => (Object.hasOwn(r, k) ? r[k] : undefined);
  const command = own('command');
  if (typeof command !== 'string' || command === '') throw invalid(userName, 'command', 'Required value');
  const apiVersion = own('apiVersion');
  if (typeof apiVersion !== 'string' || apiVersion === '')
    throw invalid(userName, 'apiVersion', 'Required value');
  const [group, version] = apiVersion.split('/');
  if (!execApiGroups.includes(group ?? '') || !versions.includes(version ?? '')) {
    throw invalid(
      userName,
      'apiVersion',
      `Unsupported value: ${JSON.stringify(apiVersion)}: supported values: ${execApiGroups.flatMap((g) => versions.map((v) => `"${g}/${v}"`)).join(', ')}`,
    );
  }
  const rawMode = own('interactiveMode');
  let interactiveMode: ExecInteractiveMode;
  if (rawMode === undefined || rawMode === null || rawMode === '') {
    if (version === 'v1') throw invalid(userName, 'interactiveMode', 'Required value: required in v1');
    interactiveMode = 'IfAvailable';
  } else if (modes.includes(rawMode as ExecInteractiveMode)) {
    interactiveMode = rawMode as ExecInteractiveMode;
  } else {
    throw invalid(
      userName,
      'interactiveMode',
      `Unsupported value: ${JSON.stringify(rawMode)}: supported values: "Never", "IfAvailable", "Always"`,
    );
  }
  const rawArgs = own('args') ?? [];
  if (!Array.isArray(rawArgs) || rawArgs.some((a) => typeof a !== 'string'))
    throw invalid(userName, 'args', 'must be a list of strings');
  const rawEnv = own('env') ?? [];
  if (!Array.isArray(rawEnv)) throw invalid(userName, 'env', 'must be a list');
  const env = rawEnv.map((e, i) => {
    const name =
      typeof e === 'object' && e !== null && Object.hasOwn(e, 'name')
        ? (e as { name: unknown }).name
        : undefined;
    const value =
      typeof e === 'object' && e !== null && Object.hasOwn(e, 'value')
        ? (e as { value: unknown }).value
        : undefined;
    if (typeof name !== 'string' || name === '' || typeof value !== 'string')
      throw invalid(userName, `env[${i}]`, 'needs a name and a string value');
    return { name, value };
  });
  const installHint = own('installHint');
  const resolved =
    isAbsolute(command) || !command.includes('/') || baseDir === undefined ? command : join(baseDir, command);
  return {
    command: resolved,
    args: rawArgs as string[],
    env,
    apiVersion,
    ...(typeof installHint === 'string' && installHint !== '' ? { installHint } : {}),
    provideClusterInfo: own('provideClusterInfo') === true,
    interactiveMode,
  };
}

/** Cluster information, terminal, timeout, stderr, output limit and clock of exec credential plugins. */
export interface ExecCredentialProviderOptions {
  /** The cluster, sent in `KUBERNETES_EXEC_INFO` when `provideClusterInfo` is on. */
  readonly cluster?: ExecClusterInfo;
  /** Whether standard input is a terminal the plugin may use. Default `process.stdin.isTTY`. */
  readonly stdinIsTerminal?: boolean;
  /** A non-interactive plugin still running after this is killed, ms. Default 60 s. */
  readonly timeoutMs?: number;
  /** Where the plugin's stderr goes. Default `inherit` (as kubectl: the user sees its prompts and errors). */
  readonly stderr?: 'inherit' | 'ignore';
  /** Largest stdout read. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  readonly now?: () => number;
}

/** Defaults of `ExecCredentialProviderOptions`. */
export const defaultExecCredentialProviderOptions: Readonly<
  Required<Pick<ExecCredentialProviderOptions, 'timeoutMs' | 'stderr' | 'maxOutputBytes'>>
> = Object.freeze({ timeoutMs: 60_000, stderr: 'inherit', maxOutputBytes: 1 << 20 });

/**
 * Runs a credential plugin and keeps its answer: until `expirationTimestamp`, until a 401 (`refresh`),
 * or for the process's life. Concurrent callers share one run.
 */
export interface ExecCredentialProvider {
  /** The cached credentials, running the plugin when there are none or they expired. */
  get(): Promise<ExecCredentials>;
  /**
   * After a 401 with `stale`: runs the plugin again unless another caller already replaced `stale`.
   */
  refresh(stale: ExecCredentials): Promise<ExecCredentials>;
}

function execError(message: string): ClientError {
  return new ClientError('InvalidConfig', 0, `exec: ${message}`);
}

/** Decodes a plugin's stdout (an ExecCredential of `apiVersion`). */
export function parseExecCredential(stdout: string, apiVersion: string): ExecCredentials {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch (e) {
    throw execError(`decoding stdout: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw execError('decoding stdout: not an object');
  const d = doc as Record<string, unknown>;
  const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
  if (own(d, 'kind') !== 'ExecCredential') throw execError('decoding stdout: kind is not ExecCredential');
  if (own(d, 'apiVersion') !== apiVersion) {
    throw execError(
      `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${String(own(d, 'apiVersion'))}`,
    );
  }
  const status = own(d, 'status');
  if (typeof status !== 'object' || status === null || Array.isArray(status))
    throw execError("exec plugin didn't return a status field");
  const s = status as Record<string, unknown>;
  const token = own(s, 'token');
  const cert = own(s, 'clientCertificateData');
  const key = own(s, 'clientKeyData');
  const hasToken = typeof token === 'string' && token !== '';
  const hasCert = typeof cert === 'string' && cert !== '';
  const hasKey = typeof key === 'string' && key !== '';
  if (hasCert !== hasKey) throw execError('exec plugin returned only certificate or key, not both');
  if (!hasToken && !hasCert) throw execError("exec plugin didn't return a token or cert/key pair");
  let expiresAt: number | undefined;
  const exp = own(s, 'expirationTimestamp');
  if (exp !== undefined && exp !== null && exp !== '') {
    expiresAt = typeof exp === 'string' ? Date.parse(exp) : Number.NaN;
    if (Number.isNaN(expiresAt))
      throw execError(`decoding stdout: bad expirationTimestamp ${JSON.stringify(exp)}`);
  }
  return {
    ...(hasToken ? { token: token as string } : {}),
    ...(hasCert ? { cert: cert as string, key: key as string } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

/**
 * Runs a kubeconfig user's `exec` plugin (doc 2 §2.7) and caches its credential until it expires or a
 * 401.
 */
export function createExecCredentialProvider(
  exec: ExecConfig,
  options: ExecCredentialProviderOptions = {},
): ExecCredentialProvider {
  const o = { ...defaultExecCredentialProviderOptions, ...options };
  const now = options.now ?? Date.now;
  let cached: ExecCredentials | undefined;
  let running: Promise<ExecCredentials> | undefined;

  function run(): Promise<ExecCredentials> {
    const terminal = options.stdinIsTerminal ?? process.stdin.isTTY === true;
    if (exec.interactiveMode === 'Always' && !terminal) {
      return Promise.reject(
        execError('exec plugin cannot support interactive mode: standard input is not a terminal'),
      );
    }
    const interactive = exec.interactiveMode !== 'Never' && terminal;
    const spec: Record<string, unknown> = { interactive };
    if (exec.provideClusterInfo && options.cluster) spec.cluster = options.cluster;
    const env: Record<string, string | undefined> = { ...process.env };
    for (const e of exec.env) env[e.name] = e.value;
    env.KUBERNETES_EXEC_INFO = JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec });
    return new Promise<ExecCredentials>((resolve, reject) => {
      const child = spawn(exec.command, [...exec.args], {
        env,
        stdio: [interactive ? 'inherit' : 'ignore', 'pipe', o.stderr],
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let failed: ClientError | undefined;
      const timer = interactive
        ? undefined
        : setTimeout(() => {
            failed = execError(`executable ${exec.command} did not finish within ${o.timeoutMs} ms`);
            child.kill('SIGKILL');
          }, o.timeoutMs);
      child.stdout?.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxOutputBytes) {
          failed = execError(`executable ${exec.command} wrote more than ${o.maxOutputBytes} bytes`);
          child.kill('SIGKILL');
        } else chunks.push(c);
      });
      child.on('error', (e: NodeJS.ErrnoException) => {
        if (timer) clearTimeout(timer);
        const hint = exec.installHint ? `\n\n${exec.installHint}` : '';
        reject(
          e.code === 'ENOENT' || e.code === 'EACCES'
            ? execError(`executable ${exec.command} not found${hint}`)
            : execError(`executable ${exec.command}: ${e.message}${hint}`),
        );
      });
      child.on('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        if (failed) return reject(failed);
        if (code !== 0) {
          return reject(
            execError(
              `executable ${exec.command} failed with ${code === null ? `signal ${signal}` : `exit code ${code}`}`,
            ),
          );
        }
        try {
          resolve(parseExecCredential(Buffer.concat(chunks).toString('utf8'), exec.apiVersion));
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  function fresh(): Promise<ExecCredentials> {
    running ??= run()
      .then((c) => {
        cached = c;
        return c;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    get() {
      if (cached && (cached.expiresAt === undefined || cached.expiresAt > now()))
        return Promise.resolve(cached);
      return fresh();
    },
    refresh(stale) {
      if (cached && cached !== stale && (cached.expiresAt === undefined || cached.expiresAt > now()))
        return Promise.resolve(cached);
      cached = undefined;
      return fresh();
    },
  };
}
