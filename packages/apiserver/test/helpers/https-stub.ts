import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { GeneratedTls } from '@orchard/apiserver/tls';

/** A running local HTTPS stand-in for a remote service (an issuer, a webhook). */
export interface HttpsStub {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** Closes open connections and the listener. */
  stop(): Promise<void>;
}

/** Starts an HTTPS server on 127.0.0.1 with the serving certificate of `tls` (plus `options`). */
export async function startHttpsStub(
  tls: GeneratedTls,
  handler: RequestListener,
  options: ServerOptions = {},
): Promise<HttpsStub> {
  const server = createServer({ cert: tls.serving.cert, key: tls.serving.key, ...options }, handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Starts a webhook stand-in: each request's body is read whole, parsed as JSON and handed to
 * `answer` with the response (content type `application/json` already set) and the request.
 */
export function startJsonWebhook(
  tls: GeneratedTls,
  answer: (review: any, res: ServerResponse, req: IncomingMessage) => void,
  options: ServerOptions = {},
): Promise<HttpsStub> {
  return startHttpsStub(
    tls,
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        res.setHeader('content-type', 'application/json');
        answer(review, res, req);
      });
    },
    options,
  );
}
