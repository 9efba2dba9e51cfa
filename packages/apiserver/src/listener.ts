import {
  createServer as createHttpServer,
  IncomingMessage,
  type RequestListener,
  type Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiError, type Flavor } from '@orchard/meta';
import type { ApiServerOptions } from './options.js';
import { AuditedResponse } from './response/audited-response.js';
import { writeError } from './response/write.js';
import { createHttpsServerSharingContext } from './tls/serving-context.js';

/** The HTTP(S) server of an `ApiServer`: listens, tracks connections, closes them all. */
export interface Listener {
  listen(port: number, host: string): Promise<{ url: string; port: number }>;
  /**
   * Stops accepting connections, then lets the requests in flight finish and get their response
   * (for at most `graceMs`; their connections close after it), closes idle connections with a clean
   * end, and destroys what is left only after the grace period.
   */
  close(graceMs?: number): Promise<void>;
  readonly listening: boolean;
}

/**
 * TLS 1.2 or later, and on 1.2 only forward-secret AEAD suites (upstream's default list minus the
 * CBC ones); TLS 1.3 suites are all strong and are left as Node has them.
 */
const tlsHardening = Object.freeze({
  minVersion: 'TLSv1.2' as const,
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: true,
});

export function createListener(
  handle: RequestListener,
  flavor: Flavor,
  options: Pick<ApiServerOptions, 'tls' | 'requestHeaderTimeoutMs' | 'requestTimeoutMs'>,
): Listener {
  const { tls } = options;
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const drain = createDrain(handle);
  return {
    get listening() {
      return server !== undefined;
    },
    async listen(port, host) {
      if (server) throw new Error('already listening');
      // How often Node checks the header and request deadlines (its default, 30 s, let a slowloris
      // connection live half a minute past its deadline).
      const connectionsCheckingInterval = Math.min(1000, options.requestHeaderTimeoutMs);
      const clientCas = [tls?.clientCa, tls?.requestHeaderClientCa].filter((c): c is string => !!c);
      const s = tls
        ? // The key, certificate and CAs are parsed once per process (`tls/serving-context.ts`).
          createHttpsServerSharingContext(
            {
              connectionsCheckingInterval,
              ServerResponse: AuditedResponse,
              ...tlsHardening,
              cert: tls.cert,
              key: tls.key,
              // A client certificate is requested, never required: token and anonymous callers
              // connect too, and the authentication filter decides who is who.
              ...(clientCas.length > 0
                ? { ca: clientCas, requestCert: true, rejectUnauthorized: false }
                : {}),
            },
            drain.handle,
          )
        : createHttpServer({ connectionsCheckingInterval, ServerResponse: AuditedResponse }, drain.handle);
      server = s;
      // Slow clients (slowloris): headers within requestHeaderTimeoutMs, else 408 (Node checks the
      // deadline every connectionsCheckingInterval); a stalled body is the timeout filter's 408.
      s.headersTimeout = options.requestHeaderTimeoutMs;
      // A backstop only: the request-timeout filter answers a stalled body first (408).
      s.requestTimeout = Math.max(options.requestTimeoutMs, options.requestHeaderTimeoutMs) + 5000;
      s.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) =>
        rejectMalformed(err, socket, flavor),
      );
      s.on(tls ? 'secureConnection' : 'connection', (c: Socket) => {
        sockets.add(c);
        c.on('close', () => sockets.delete(c));
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const addr = s.address() as AddressInfo;
      const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      return { url: `${tls ? 'https' : 'http'}://${hostPart}:${addr.port}`, port: addr.port };
    },
    async close(graceMs = 0) {
      const s = server;
      if (!s) return;
      // Stop accepting; idle keep-alive connections close now, busy ones after their response.
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeIdleConnections();
      await drain.finish(graceMs);
      // Every response is complete: end what is left (idle) cleanly, destroy only stragglers.
      for (const c of sockets) c.end();
      const timer = new Promise<void>((r) => setTimeout(r, Math.min(graceMs, 1000)).unref());
      await Promise.race([closed, timer]);
      for (const c of sockets) c.destroy();
      await closed;
    },
  };
}

/**
 * The requests in flight, for a graceful close: once `finish` starts, every response (those running
 * and any that still arrive on an open connection) closes its connection after it is sent, and
 * `finish` resolves when the last one is done, or after `graceMs`.
 */
function createDrain(handle: RequestListener): {
  handle: RequestListener;
  finish(graceMs: number): Promise<void>;
} {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let drained: (() => void) | undefined;
  // One listener function for every response ('close' comes once): no closure per request.
  const onClose = function (this: ServerResponse) {
    inFlight.delete(this);
    if (draining && inFlight.size === 0) drained?.();
  };
  return {
    handle(req, res) {
      inFlight.add(res);
      res.on('close', onClose);
      if (draining) res.shouldKeepAlive = false;
      handle(req, res);
    },
    async finish(graceMs) {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      if (inFlight.size === 0 || graceMs <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        drained = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
    },
  };
}

/**
 * A request Node's HTTP parser rejects (malformed framing, oversized headers) still gets a Status,
 * written by the one Status-writing path on a response bound to the raw socket, then the
 * connection closes.
 */
function rejectMalformed(err: NodeJS.ErrnoException, socket: Socket, flavor: Flavor): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const error = tooLarge
    ? new ApiError(431, 'BadRequest', 'request header fields too large')
    : timedOut
      ? new ApiError(408, 'Timeout', 'the client did not send the request in time')
      : new ApiError(400, 'BadRequest', `malformed HTTP request: ${err.code ?? err.message}`);
  const res = new ServerResponse(new IncomingMessage(socket));
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.on('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  writeError({ res, flavor }, error);
}
