import * as http from 'node:http';
import * as https from 'node:https';

/** The subset of `fetch` the authenticators call (discovery, JWKS, TokenReview). */
export type FetchLike = (
  url: string,
  init?: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
  },
) => Promise<Response>;

/**
 * Options of `createHttpsFetch`; all optional (`defaultHttpsFetchOptions` holds the defaults that are
 * values).
 */
export interface HttpsFetchOptions {
  /** PEM CA bundle to trust instead of the system roots (`certificateAuthority`, `--oidc-ca-file`). */
  readonly ca?: string;
  /** PEM client certificate and key (a webhook kubeconfig's user). */
  readonly cert?: string;
  readonly key?: string;
  /** Skip server verification (a kubeconfig's `insecure-skip-tls-verify`). */
  readonly insecureSkipTlsVerify?: boolean;
  /** Server name for SNI and verification (a kubeconfig's `tls-server-name`). */
  readonly serverName?: string;
  /** Whole-request deadline, ms. Default 10 s. */
  readonly timeoutMs?: number;
  /** A response body larger than this fails the request. Default 4 MiB. */
  readonly maxBodyBytes?: number;
}

/**
 * The defaults of `HttpsFetchOptions` that are values: a 10 s deadline for the whole request and a 4 MiB
 * response body limit. Frozen.
 */
export const defaultHttpsFetchOptions: Readonly<
  Required<Pick<HttpsFetchOptions, 'timeoutMs' | 'maxBodyBytes'>>
> = Object.freeze({ timeoutMs: 10_000, maxBodyBytes: 4 << 20 });

/**
 * A `fetch` over node:http(s) that trusts a given CA bundle and can present a client certificate —
 * what the global fetch cannot do without a dispatcher. Bounded in time and size: an identity
 * provider or webhook that hangs or streams forever fails the request, never the server.
 */
export function createHttpsFetch(options: HttpsFetchOptions = {}): FetchLike {
  const o = { ...defaultHttpsFetchOptions, ...options };
  const agent = new https.Agent({
    keepAlive: true,
    ...(o.ca !== undefined ? { ca: o.ca } : {}),
    ...(o.cert !== undefined ? { cert: o.cert } : {}),
    ...(o.key !== undefined ? { key: o.key } : {}),
    ...(o.serverName !== undefined ? { servername: o.serverName } : {}),
    rejectUnauthorized: o.insecureSkipTlsVerify !== true,
  });
  const plain = new http.Agent({ keepAlive: true });
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        reject(new Error(`invalid URL ${JSON.stringify(url)}`));
        return;
      }
      if (u.protocol !== 'https:' && u.protocol !== 'http:') {
        reject(new Error(`unsupported URL scheme ${u.protocol}`));
        return;
      }
      const mod = u.protocol === 'https:' ? https : http;
      const body = init.body === undefined ? undefined : Buffer.from(init.body);
      const headers: Record<string, string> = { ...init.headers };
      if (body) headers['content-length'] = String(body.length);
      let settled = false;
      const fail = (e: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(e);
      };
      const req = mod.request(
        u,
        { method: init.method ?? 'GET', headers, agent: u.protocol === 'https:' ? agent : plain },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > o.maxBodyBytes) fail(new Error(`response body exceeds ${o.maxBodyBytes} bytes`));
            else chunks.push(c);
          });
          res.on('error', (e) => fail(e));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (typeof v === 'string') h.set(k, v);
              else if (Array.isArray(v)) for (const x of v) h.append(k, x);
            }
            const status = res.statusCode ?? 0;
            const nullBody = status === 204 || status === 304 || (status >= 100 && status < 200);
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: h }));
          });
        },
      );
      const timer = setTimeout(
        () => fail(new Error(`request timed out after ${o.timeoutMs} ms`)),
        o.timeoutMs,
      );
      req.on('error', (e) => fail(e));
      if (init.signal) {
        if (init.signal.aborted) fail(new Error('request aborted'));
        else init.signal.addEventListener('abort', () => fail(new Error('request aborted')), { once: true });
      }
      req.end(body);
    });
}
