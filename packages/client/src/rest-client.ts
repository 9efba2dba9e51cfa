import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { type Status, StatusSchema } from '@orchard/meta';
import { ClientError } from './errors.js';
import {
  createExecCredentialProvider,
  type ExecCredentialProvider,
  type ExecCredentialProviderOptions,
  type ExecCredentials,
} from './exec-credential.js';
import type { Connection } from './kubeconfig.js';

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** One request: method, path, query, body and headers. */
export interface RequestOptions {
  method?: string;
  /** Absolute path (`/api/v1/namespaces/default/configmaps`). */
  path: string;
  query?: Query;
  /** A JSON value (serialized) or raw bytes/string. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A whole response: status, headers and body bytes. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
}

/** A response whose body is read as it arrives (watches). */
export interface StreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as it arrives (chunked). Ends when the server ends the response or the signal aborts. */
  body: AsyncIterable<Uint8Array>;
}

/** The server URL and the connection (TLS, credentials) a `RestClient` uses. */
export interface RestClientOptions extends Partial<Connection> {
  server: string;
  userAgent?: string;
  /**
   * Most sockets open to the server at once (the keep-alive agent's `maxSockets`); further requests
   * queue. Default: no limit. Many callers sharing one client (fake nodes) bound their sockets so.
   */
  maxSockets?: number;
  /** How the `exec` credential plugin runs (terminal, timeout, stderr). */
  execOptions?: Omit<ExecCredentialProviderOptions, 'cluster'>;
}

/**
 * A minimal REST client over node:http(s): TLS CA and client certificates from a kubeconfig
 * Connection, bearer or basic credentials, JSON bodies, Status errors as `ClientError`. With an `exec`
 * credential plugin, its token or client certificate is used (a new certificate means a new TLS
 * connection) and kept until it expires; a 401 runs the plugin again and retries the request once.
 */
export interface RestClient {
  readonly connection: RestClientOptions;
  /** Any request; never throws for HTTP error codes. */
  raw(options: RequestOptions): Promise<RawResponse>;
  /** A JSON request; rejects with `ClientError` (`Status`) for codes >= 400. */
  json<T = unknown>(options: RequestOptions): Promise<T>;
  /** Opens a streaming response (watch); rejects with `ClientError` for codes >= 400. */
  stream(options: RequestOptions): Promise<StreamResponse>;
}

/** `?a=1&b=x` from a `Query` (empty string when nothing is set). */
export function formatQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

async function readAll(res: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of res) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * The error of a response with code >= 400. Its body is trusted as a `Status` only when it passes
 * meta's `StatusSchema` (a `kind: Status` with wrong field types is shown as text, not half-used).
 */
function statusError(status: number, headers: http.IncomingHttpHeaders, body: Uint8Array): ClientError {
  const text = Buffer.from(body).toString('utf8');
  let st: Status | undefined;
  try {
    const parsed = StatusSchema.safeParse(JSON.parse(text));
    if (parsed.success) st = parsed.data as Status;
  } catch {
    // not JSON
  }
  const ra = headers['retry-after'];
  const retryAfterSeconds = typeof ra === 'string' && /^\d+$/.test(ra) ? Number(ra) : undefined;
  return new ClientError('Status', status, st?.message ?? (text || `HTTP ${status}`), {
    ...(st ? { body: st } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

/**
 * A REST client for one server: keep-alive connections, TLS and credentials from a kubeconfig
 * `Connection`.
 */
export function createRestClient(options: RestClientOptions): RestClient {
  const url = new URL(options.server);
  const isHttps = url.protocol === 'https:';
  const tlsAgent = (cert?: string, key?: string) =>
    new https.Agent({
      keepAlive: true,
      ...(options.maxSockets ? { maxSockets: options.maxSockets } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(options.tlsServerName ? { servername: options.tlsServerName } : {}),
      rejectUnauthorized: !options.insecureSkipTlsVerify,
    });
  const agent = isHttps
    ? tlsAgent(options.cert, options.key)
    : new http.Agent({
        keepAlive: true,
        ...(options.maxSockets ? { maxSockets: options.maxSockets } : {}),
      });
  const plugin: ExecCredentialProvider | undefined = options.exec
    ? createExecCredentialProvider(options.exec, {
        ...options.execOptions,
        ...(options.execCluster ? { cluster: options.execCluster } : {}),
      })
    : undefined;
  // The agent of the plugin's current client certificate; replaced (old sockets closed) when it changes.
  let pluginAgent: { cert: string; agent: https.Agent } | undefined;
  const agentFor = (creds: ExecCredentials | undefined): http.Agent => {
    if (!isHttps || !creds?.cert) return agent;
    if (pluginAgent?.cert !== creds.cert) {
      pluginAgent?.agent.destroy();
      pluginAgent = { cert: creds.cert, agent: tlsAgent(creds.cert, creds.key) };
    }
    return pluginAgent.agent;
  };
  const basePath = url.pathname.replace(/\/+$/, '');
  const userAgent = options.userAgent ?? 'orchard-client/0.1';

  function send(o: RequestOptions, creds: ExecCredentials | undefined): Promise<http.IncomingMessage> {
    let payload: Uint8Array | undefined;
    let contentType = o.contentType;
    if (o.body !== undefined) {
      if (o.body instanceof Uint8Array) payload = o.body;
      else if (typeof o.body === 'string') payload = Buffer.from(o.body);
      else {
        payload = Buffer.from(JSON.stringify(o.body));
        contentType ??= 'application/json';
      }
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': userAgent,
      ...o.headers,
    };
    if (contentType) headers['Content-Type'] = contentType;
    if (payload) headers['Content-Length'] = String(payload.length);
    const bearer = creds?.token ?? tokenFromFile() ?? options.token;
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    else if (options.username !== undefined) {
      headers.Authorization = `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
    }
    const mod = isHttps ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          method: o.method ?? 'GET',
          path: basePath + o.path + formatQuery(o.query),
          headers,
          agent: agentFor(creds),
          ...(o.signal ? { signal: o.signal } : {}),
        },
        resolve,
      );
      req.on('error', (e) => reject(new ClientError('Transport', 0, e.message, { cause: e })));
      if (payload) req.end(payload);
      else req.end();
    });
  }

  // A `tokenFile` is read again once a minute (client-go's cached file token source).
  let fileToken: { value: string | undefined; readAt: number } | undefined;
  const tokenFromFile = (): string | undefined => {
    if (!options.tokenFile) return undefined;
    if (!fileToken || Date.now() - fileToken.readAt >= 60_000) {
      let value = fileToken?.value;
      try {
        value = readFileSync(options.tokenFile, 'utf8').trim() || undefined;
      } catch {
        // keep the last token read; the server answers 401 if it is no longer valid
      }
      fileToken = { value, readAt: Date.now() };
    }
    return fileToken.value;
  };

  async function open(o: RequestOptions): Promise<http.IncomingMessage> {
    if (!plugin) return send(o, undefined);
    const creds = await plugin.get();
    const res = await send(o, creds);
    if (res.statusCode !== 401) return res;
    res.resume();
    return send(o, await plugin.refresh(creds));
  }

  return {
    connection: options,
    async raw(o) {
      const res = await open(o);
      const body = await readAll(res);
      return { status: res.statusCode ?? 0, headers: res.headers, body };
    },
    async json<T>(o: RequestOptions): Promise<T> {
      const res = await open(o);
      const body = await readAll(res);
      const status = res.statusCode ?? 0;
      if (status >= 400) throw statusError(status, res.headers, body);
      try {
        return JSON.parse(Buffer.from(body).toString('utf8')) as T;
      } catch (e) {
        throw new ClientError('Decode', status, `response is not JSON: ${(e as Error).message}`, {
          cause: e,
        });
      }
    },
    async stream(o) {
      const res = await open(o);
      const status = res.statusCode ?? 0;
      if (status >= 400) throw statusError(status, res.headers, await readAll(res));
      const body: AsyncIterable<Uint8Array> = {
        async *[Symbol.asyncIterator]() {
          try {
            for await (const chunk of res) yield chunk as Uint8Array;
          } catch (e) {
            if (o.signal?.aborted) return;
            throw new ClientError('Transport', status, `stream broken: ${(e as Error).message}`, {
              cause: e,
            });
          } finally {
            res.destroy();
          }
        },
      };
      return { status, headers: res.headers, body };
    },
  };
}
