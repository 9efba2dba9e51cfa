import { request } from 'node:https';
import {
  type ApiServer,
  type ApiServerOptions,
  type AuthenticationOptions,
  createApiServer,
  identityDomain,
} from '@orchard/apiserver';
import { type GeneratedTls, generateServerTls } from '@orchard/apiserver/tls';
import type { createRestClient } from '@orchard/client';
import { type Flavor, kubernetesFlavor, orchFlavor } from '@orchard/meta';

/** The two flavors every HTTP-level authentication suite runs under (`describe.each(flavors)`). */
export const flavors = [orchFlavor, kubernetesFlavor] as const;

let shared: Promise<GeneratedTls> | undefined;
/** One CA, serving and admin certificate per test process. */
export function sharedTls(): Promise<GeneratedTls> {
  shared ??= generateServerTls();
  return shared;
}

export interface AuthResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly bytes: Buffer;
  readonly json: any;
}

export interface CallOptions {
  /** Client certificate and key (PEM); none = no certificate. */
  readonly cert?: { cert: string; key: string };
  readonly headers?: Record<string, string | string[]>;
  readonly body?: unknown;
}

export interface AuthServer {
  readonly url: string;
  /** The flavor the server speaks (group names, system namespace, identity domain). */
  readonly flavor: Flavor;
  /** `authentication.<domain>`: the group of SelfSubjectReview, TokenReview and TokenRequest. */
  readonly authnGroup: string;
  /** The identity domain (`orch.io` / `kubernetes.io`): `bootstrap.<d>/token`, extras `authentication.<d>/…`. */
  readonly identityDomain: string;
  readonly server: ApiServer;
  readonly tls: GeneratedTls;
  /** One HTTPS request trusting the server's CA (no connection reuse). */
  call(method: string, path: string, options?: CallOptions): Promise<AuthResponse>;
  /** `status.userInfo` of a SelfSubjectReview sent with `options`, or the failed response. */
  whoami(options?: CallOptions): Promise<AuthResponse>;
  stop(): Promise<void>;
}

/** Starts the server over HTTPS with the given authentication (client certificates from the shared CA). */
export async function startAuthServer(
  input: {
    authentication?: AuthenticationOptions;
    requestHeaderClientCa?: string;
    flavor?: Flavor;
    server?: Partial<ApiServerOptions>;
  } = {},
): Promise<AuthServer> {
  const tls = await sharedTls();
  const flavor = input.flavor ?? kubernetesFlavor;
  const server = createApiServer({
    ...input.server,
    flavor,
    tls: {
      cert: tls.serving.cert,
      key: tls.serving.key,
      clientCa: tls.ca.cert,
      ...(input.requestHeaderClientCa ? { requestHeaderClientCa: input.requestHeaderClientCa } : {}),
    },
    ...(input.authentication ? { authentication: input.authentication } : {}),
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const call = (method: string, path: string, o: CallOptions = {}) =>
    new Promise<AuthResponse>((resolve, reject) => {
      const headers: Record<string, string | string[]> = { ...o.headers };
      let body: Buffer | undefined;
      if (o.body !== undefined) {
        body = Buffer.isBuffer(o.body) ? o.body : Buffer.from(JSON.stringify(o.body));
        headers['content-type'] ??= 'application/json';
      }
      const req = request(
        new URL(path, url),
        {
          method,
          ca: tls.ca.cert,
          headers,
          agent: false,
          ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString();
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    url,
    flavor,
    authnGroup: flavor.group('authentication'),
    identityDomain: identityDomain(flavor),
    server,
    tls,
    call,
    whoami: (o = {}) =>
      call('POST', `/apis/${flavor.group('authentication')}/v1/selfsubjectreviews`, {
        ...o,
        body: { apiVersion: `${flavor.group('authentication')}/v1`, kind: 'SelfSubjectReview' },
      }),
    stop: () => server.close(),
  };
}

/** The 401 every rejected credential gets: a Status that names no check. */
export const unauthorizedStatus = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

/** The exact bytes of that 401 (the same under every flavor: a core `v1` Status). */
export const unauthorizedBody = JSON.stringify(unauthorizedStatus);

/** SelfSubjectReview through @orchard/client (the group of `flavor`). */
export function clientWhoami(client: ReturnType<typeof createRestClient>, flavor: Flavor) {
  const group = flavor.group('authentication');
  return client.json<{ status: { userInfo: { username: string; groups: string[] } } }>({
    method: 'POST',
    path: `/apis/${group}/v1/selfsubjectreviews`,
    body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' },
  });
}
