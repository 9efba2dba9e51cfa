import { request } from 'node:https';

/** Largest discovery or JWKS document read (a hostile issuer cannot fill memory). */
const maxBodyBytes = 1024 * 1024;

/**
 * A `fetch` for the OIDC issuer that trusts `ca` (`--oidc-ca-file`) instead of the system roots:
 * Node's global fetch takes no CA option. GET only, bounded body and time.
 */
export function fetchWithCa(ca: string, timeoutMs = 10_000) {
  return (url: string, init?: { signal?: AbortSignal }): Promise<Response> =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', ca, timeout: timeoutMs, signal: init?.signal }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.byteLength;
          if (size > maxBodyBytes) {
            req.destroy(new Error(`${url}: response larger than ${maxBodyBytes} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (typeof v === 'string') headers.set(k, v);
            else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
          }
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers }));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
      req.on('error', reject);
      req.end();
    });
}
