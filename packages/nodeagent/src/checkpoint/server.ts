import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { posix } from 'node:path';
import type { RestClient } from '@orchard/client';
import type { Flavor } from '@orchard/meta';
import { type AgentResponse, handleCheckpoint, textResponse } from './checkpoint.js';
import { type CriRuntimeClient, connectCriRuntime } from './cri.js';
import {
  authenticateRequest,
  authorizationMessage,
  authorizeRequest,
  createReviewCaches,
  type DelegatedAuthOptions,
  type ReviewCacheTtls,
  requestAttributes,
} from './delegated-auth.js';

/** The feature gate of the checkpoint endpoint (beta, on by default). */
export const containerCheckpointGate = 'ContainerCheckpoint';

/** The agent's port by default (upstream kubelet's 10250). */
export const defaultAgentPort = 10250;

/** Options of `startAgentServer`. */
export interface AgentServerOptions {
  /** The agent's API client (node credentials): pods, TokenReviews, SubjectAccessReviews. */
  readonly client: RestClient;
  readonly flavor: Flavor;
  readonly nodeName: string;
  /** Serving certificate and key, PEM (`loadOrCreateServingCert`). */
  readonly tls: { readonly cert: string; readonly key: string };
  /** `authentication.x509.clientCAFile`'s PEM: client certificates verified against it authenticate. */
  readonly clientCa?: string;
  /** `address`. Default `0.0.0.0`. */
  readonly address?: string;
  /** `port`. Default 10250; 0 picks a free port. */
  readonly port?: number;
  /** `featureGates`: `ContainerCheckpoint` is on unless set false. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** `<root>/checkpoints`. */
  readonly checkpointsDir: string;
  /** The CRI runtime; default a client of `containerRuntimeEndpoint`. */
  readonly runtime?: CriRuntimeClient;
  /** `containerRuntimeEndpoint` (when `runtime` is not given). Default `unix:///run/containerd/containerd.sock`. */
  readonly containerRuntimeEndpoint?: string;
  /** `runtimeRequestTimeout` in ms. Default 2 min. */
  readonly runtimeRequestTimeoutMs?: number;
  /** `authentication.anonymous.enabled` (default false), `authentication.webhook.enabled` (default true), `authorization.mode` (default Webhook). */
  readonly auth?: Pick<DelegatedAuthOptions, 'anonymous' | 'webhookAuthentication' | 'authorizationMode'> & {
    /** Review caches' TTLs (default upstream's: tokens 2 min, allowed 5 min, denied 30 s; 0 turns one off). */
    readonly cacheTtls?: ReviewCacheTtls;
  };
  /** An unexpected error while answering (the request got a 500). */
  readonly onError?: (e: unknown) => void;
}

/** The agent's running HTTPS server. */
export interface AgentServer {
  /** The port listened on. */
  readonly port: number;
  /** `https://<address>:<port>` (loopback when listening on every address). */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const checkpointRoute = /^\/checkpoint\/([^/]+)\/([^/]+)\/([^/]+)$/;

/**
 * Starts the agent's HTTPS port (upstream kubelet's 10250). A path with `.`/`..` segments or repeated
 * slashes (after percent-decoding) is redirected (301) to its clean form, as Go's `ServeMux` does, so a
 * traversal never reaches a handler. Every other request is authenticated and
 * authorized by delegation to the API server before routing (as upstream's filter runs first):
 * 401 `Unauthorized`, 403 `Forbidden (user=…, verb=…, resource=nodes, subresource=…)`, 500
 * `Authorization error (…)`. Then `POST /checkpoint/<namespace>/<pod>/<container>` when the
 * `ContainerCheckpoint` gate is on (see `handleCheckpoint`); another method there is 405
 * `405: Method Not Allowed`; every other path, and the checkpoint path with the gate off, 404
 * `404: Page Not Found` (go-restful's texts).
 */
export async function startAgentServer(o: AgentServerOptions): Promise<AgentServer> {
  const gateOn = o.featureGates?.[containerCheckpointGate] ?? true;
  const ownRuntime = o.runtime
    ? undefined
    : connectCriRuntime(o.containerRuntimeEndpoint ?? 'unix:///run/containerd/containerd.sock', {
        ...(o.runtimeRequestTimeoutMs !== undefined
          ? { runtimeRequestTimeoutMs: o.runtimeRequestTimeoutMs }
          : {}),
      });
  const runtime = (o.runtime ?? ownRuntime) as CriRuntimeClient;
  const { cacheTtls, ...authSettings } = o.auth ?? {};
  const auth: DelegatedAuthOptions = {
    client: o.client,
    flavor: o.flavor,
    nodeName: o.nodeName,
    ...authSettings,
    cache: createReviewCaches(cacheTtls),
  };

  async function answer(req: IncomingMessage): Promise<AgentResponse> {
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const rawQuery = q < 0 ? '' : raw.slice(q + 1);
    let path: string;
    try {
      path = decodeURIComponent(q < 0 ? raw : raw.slice(0, q));
    } catch {
      return textResponse(400, '400 Bad Request');
    }
    if (!path.startsWith('/')) return textResponse(400, '400 Bad Request');
    const clean = cleanPath(path);
    if (clean !== path) return redirect(method, clean, rawQuery);
    const user = await authenticateRequest(req, auth);
    if (!user) return textResponse(401, 'Unauthorized');
    const attrs = requestAttributes(method, path, o.nodeName);
    const outcome = await authorizeRequest(user, attrs, auth);
    if ('error' in outcome)
      return textResponse(500, authorizationMessage('Authorization error', user, attrs));
    if (!outcome.allowed) return textResponse(403, authorizationMessage('Forbidden', user, attrs));
    const m = gateOn ? checkpointRoute.exec(path) : null;
    if (!m) return textResponse(404, '404: Page Not Found');
    if (method !== 'POST')
      return { ...textResponse(405, '405: Method Not Allowed'), headers: { Allow: 'POST' } };
    return handleCheckpoint(m[1] as string, m[2] as string, m[3] as string, new URLSearchParams(rawQuery), {
      client: o.client,
      nodeName: o.nodeName,
      checkpointsDir: o.checkpointsDir,
      runtime,
    });
  }

  const server = createServer(
    {
      cert: o.tls.cert,
      key: o.tls.key,
      ...(o.clientCa ? { ca: o.clientCa, requestCert: true, rejectUnauthorized: false } : {}),
      minVersion: 'TLSv1.2',
    },
    (req: IncomingMessage, res: ServerResponse) => {
      answer(req).then(
        (r) => send(res, r),
        (e) => {
          o.onError?.(e);
          send(res, textResponse(500, 'Internal Server Error'));
        },
      );
    },
  );
  const address = o.address ?? '0.0.0.0';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? defaultAgentPort, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host =
    address === '0.0.0.0' || address === '::'
      ? '127.0.0.1'
      : address.includes(':')
        ? `[${address}]`
        : address;
  return {
    port,
    url: `https://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        ownRuntime?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Go's `ServeMux` path cleaning: `.` and `..` segments resolved, repeated slashes joined, a trailing
 * slash kept. A request whose (decoded) path is not clean is redirected to the clean one.
 */
export function cleanPath(path: string): string {
  const cleaned = posix.normalize(path);
  if (cleaned.length > 1 && cleaned.endsWith('/') && !path.endsWith('/')) return cleaned.slice(0, -1);
  return cleaned;
}

/** The 301 of Go's `ServeMux` for an unclean path (before authentication, as upstream answers). */
function redirect(method: string, path: string, rawQuery: string): AgentResponse {
  const location = `${encodeURI(path)}${rawQuery === '' ? '' : `?${rawQuery}`}`;
  const body =
    method === 'GET' || method === 'HEAD'
      ? `<a href="${location.replace(/"/g, '&quot;')}">Moved Permanently</a>.\n\n`
      : '';
  return { status: 301, contentType: 'text/html; charset=utf-8', body, headers: { Location: location } };
}

function send(res: ServerResponse, r: AgentResponse): void {
  if (res.headersSent) return;
  const body = Buffer.from(r.body, 'utf8');
  res.writeHead(r.status, {
    'Content-Type': r.contentType,
    'Content-Length': body.length,
    'X-Content-Type-Options': 'nosniff',
    ...r.headers,
  });
  res.end(body);
}
