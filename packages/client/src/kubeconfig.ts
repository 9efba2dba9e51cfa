import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { ClientError } from './errors.js';
import { type ExecClusterInfo, type ExecConfig, execApiGroups, parseExecConfig } from './exec-credential.js';

/** The parts of a kubeconfig file the client uses (clusters, users, contexts, current-context). */
export interface Kubeconfig {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
  contexts: { name: string; context: { cluster?: string; user?: string; namespace?: string } }[];
  'current-context'?: string;
  /** Directory relative file paths resolve against. */
  baseDir?: string;
}

/** Everything needed to reach one server as one user. */
export interface Connection {
  server: string;
  /** PEM CA bundle to verify the server with. */
  ca?: string;
  /** PEM client certificate and key. */
  cert?: string;
  key?: string;
  token?: string;
  /** The user's `tokenFile`: re-read every minute by the REST client, so a rotated token is picked up. */
  tokenFile?: string;
  username?: string;
  password?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
  /** The user's credential plugin (doc 2 §2.7): run for a token or client certificate before requests. */
  exec?: ExecConfig;
  /** The cluster as the plugin sees it in `KUBERNETES_EXEC_INFO` (with `provideClusterInfo`). */
  execCluster?: ExecClusterInfo;
  /** The context's namespace (default `default`). */
  namespace: string;
}

/** Parses kubeconfig YAML; relative file paths resolve against `baseDir`. */
export function parseKubeconfig(text: string, baseDir?: string): Kubeconfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new ClientError('InvalidConfig', 0, `kubeconfig is not valid YAML: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null)
    throw new ClientError('InvalidConfig', 0, 'kubeconfig is empty');
  const d = doc as Record<string, unknown>;
  const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  const cfg: Kubeconfig = {
    clusters: arr(d.clusters),
    users: arr(d.users),
    contexts: arr(d.contexts),
  };
  if (typeof d['current-context'] === 'string') cfg['current-context'] = d['current-context'];
  if (baseDir !== undefined) cfg.baseDir = baseDir;
  return cfg;
}

/** Reads a kubeconfig file: `path`, else `$KUBECONFIG` (first entry), else `~/.kube/config`. */
export function loadKubeconfig(path?: string): Kubeconfig {
  const p =
    path ?? process.env.KUBECONFIG?.split(':').find((s) => s !== '') ?? join(homedir(), '.kube', 'config');
  return parseKubeconfig(readFileSync(p, 'utf8'), dirname(p));
}

function fromBase64(s: unknown): string | undefined {
  return typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : undefined;
}

/** Resolves a context (default: current-context) into a Connection, reading referenced files. */
export function resolveConnection(cfg: Kubeconfig, contextName?: string): Connection {
  const name = contextName ?? cfg['current-context'];
  const ctx = cfg.contexts.find((c) => c.name === name)?.context;
  if (!ctx) throw new ClientError('InvalidConfig', 0, `context "${name ?? ''}" not found in kubeconfig`);
  const cluster = cfg.clusters.find((c) => c.name === ctx.cluster)?.cluster;
  if (!cluster || typeof cluster.server !== 'string') {
    throw new ClientError('InvalidConfig', 0, `cluster "${ctx.cluster ?? ''}" not found or has no server`);
  }
  const user = cfg.users.find((u) => u.name === ctx.user)?.user ?? {};
  const file = (p: unknown): string | undefined => {
    if (typeof p !== 'string' || p === '') return undefined;
    return readFileSync(isAbsolute(p) || !cfg.baseDir ? p : join(cfg.baseDir, p), 'utf8');
  };
  const conn: Connection = {
    server: cluster.server.replace(/\/+$/, ''),
    namespace: ctx.namespace || 'default',
  };
  const ca = fromBase64(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']);
  if (ca) conn.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) conn.insecureSkipTlsVerify = true;
  if (typeof cluster['tls-server-name'] === 'string') conn.tlsServerName = cluster['tls-server-name'];
  const cert = fromBase64(user['client-certificate-data']) ?? file(user['client-certificate']);
  const key = fromBase64(user['client-key-data']) ?? file(user['client-key']);
  if (cert) conn.cert = cert;
  if (key) conn.key = key;
  const token = typeof user.token === 'string' ? user.token : file(user.tokenFile)?.trim();
  // `token` wins over `tokenFile`, as in client-go; the file is read again while the client runs.
  if (typeof user.token !== 'string' && typeof user.tokenFile === 'string' && user.tokenFile !== '')
    conn.tokenFile =
      isAbsolute(user.tokenFile) || !cfg.baseDir ? user.tokenFile : join(cfg.baseDir, user.tokenFile);
  if (token) conn.token = token;
  if (typeof user.username === 'string') conn.username = user.username;
  if (typeof user.password === 'string') conn.password = user.password;
  if (Object.hasOwn(user, 'exec') && user.exec !== null && user.exec !== undefined) {
    conn.exec = parseExecConfig(user.exec, ctx.user ?? '', cfg.baseDir);
    const extensions = Array.isArray(cluster.extensions) ? (cluster.extensions as unknown[]) : [];
    const ext = extensions.find(
      (e): e is { extension?: unknown } =>
        typeof e === 'object' &&
        e !== null &&
        execApiGroups.some((g) => (e as { name?: unknown }).name === `${g}/exec`),
    );
    conn.execCluster = {
      server: cluster.server,
      ...(ca ? { 'certificate-authority-data': Buffer.from(ca).toString('base64') } : {}),
      ...(conn.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(conn.tlsServerName ? { 'tls-server-name': conn.tlsServerName } : {}),
      ...(typeof cluster['proxy-url'] === 'string' ? { 'proxy-url': cluster['proxy-url'] } : {}),
      ...(ext?.extension !== undefined ? { config: ext.extension } : {}),
    };
  }
  return conn;
}
