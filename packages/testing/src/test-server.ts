import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type SecureContext } from 'node:tls';
import {
  type ApiServer,
  type ApiServerOptions,
  launchApiServer,
  openStorage,
  type StorageBackend,
} from '@orchard/apiserver';
import {
  buildKubeconfig,
  type GeneratedTls,
  generateServerTls,
  issueClientCert,
} from '@orchard/apiserver/tls';
import type { AuthorizationMode } from '@orchard/authz';
import { createRestClient, type RestClient } from '@orchard/client';
import { type Flavor, type FlavorName, flavorByName } from '@orchard/meta';
import { type FakeClock, installFakeClock } from './fake-clock.js';
import { type LoadFixturesOptions, loadFixtures } from './fixtures.js';
import { createTestNamespace } from './namespace.js';
import { resetServer, snapshotServer } from './reset.js';
import { startOwnEtcd, testStorageBackend } from './test-storage.js';

/** Options of `startTestServer`: flavor, plain HTTP, server options and storage backend. */
export interface TestServerOptions {
  /** `orch` (default) or `kubernetes`, or a Flavor object. */
  readonly flavor?: FlavorName | Flavor;
  /** Plain HTTP; every request is the admin. Default false (HTTPS with client certificates). */
  readonly insecureHttp?: boolean;
  /**
   * The authorization modes (`--authorization-mode`). Default: the server's, `Node,RBAC` (the admin
   * is in `system:masters` and passes; node identities meet the Node authorizer and NodeRestriction,
   * other users the default roles). `'AlwaysAllow'` for quick tests that use other users and are not
   * about authorization.
   */
  readonly authorization?: AuthorizationMode | readonly AuthorizationMode[];
  /** Passed through to `createApiServer` (store, resources, maxRequestBodyBytes …). */
  readonly server?: Partial<ApiServerOptions>;
  /**
   * The storage backend when `server.store` is not given: `memory`, or `sqlite` in a temporary data
   * directory removed by `stop()` (through `openStorage`, as the CLI). Default: the
   * `ORCHARD_TEST_STORAGE` environment variable, else `memory`; CI runs a set of the server's suites
   * with `ORCHARD_TEST_STORAGE=sqlite`, and with `etcd` (each server then gets its own one-member etcd
   * from `@orchard/store-etcd/testing`, stopped by `stop()`; a shared etcd would mix the suites'
   * revisions and compactions).
   */
  readonly storage?: StorageBackend;
  /**
   * Publish the server's CA in every namespace as the flavor's root-CA ConfigMap
   * (`kube-root-ca.crt`), as a cluster (and the CLI) does. Default false: a bare API server.
   */
  readonly publishRootCa?: boolean;
  /**
   * A fake clock (`createFakeClock()`) the server reads the time from: installed as the process's
   * `Date` from before the server starts until `stop()`, so creation and deletion timestamps,
   * managedFields times, Lease times and token lifetimes follow it. Default: the real clock.
   */
  readonly clock?: FakeClock;
}

/** Another user to act as (HTTPS only): a client certificate with CN = username, O = each group. */
export interface TestUser {
  readonly username: string;
  /** Default none (the server adds `system:authenticated`). */
  readonly groups?: readonly string[];
}

/** One request to the test server: body, headers, and whether to send it anonymously. */
export interface RequestOptions {
  /** A body: objects are sent as JSON, strings and bytes as they are. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Send without the admin client certificate (HTTPS only). */
  readonly anonymous?: boolean;
  /** Send as this user instead of the admin (HTTPS only; a client certificate minted from the test CA). */
  readonly as?: TestUser;
}

/** A response to a `TestServer` request: status, headers, text and the JSON body. */
export interface TestResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body as received (for binary media types such as Protobuf). */
  readonly bytes: Uint8Array;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
}

/** A request sent as given by `raw()`: bytes, headers, and who sends it. */
export interface RawRequestOptions {
  /** Sent byte for byte: no content-type is added (content-length is). */
  readonly body?: Uint8Array | string;
  readonly headers?: Record<string, string>;
  /** Send without the admin client certificate (HTTPS only). */
  readonly anonymous?: boolean;
  /** Send as this user instead of the admin (HTTPS only; a client certificate minted from the test CA). */
  readonly as?: TestUser;
}

/** A response as bytes (and, for convenience, as text and JSON). */
export interface RawResponse extends TestResponse {
  /** `bytes` as a Buffer. */
  readonly body: Buffer;
}

/**
 * A running in-process server for tests: its URL, kubeconfig, the `ApiServer`, its storage and TLS
 * material.
 */
export interface TestServer {
  /** `https://127.0.0.1:PORT` (or `http://` with `insecureHttp`). */
  readonly url: string;
  /**
   * A kubeconfig file in a per-server temp directory, written when first read (a start writes no
   * file; reading it after `stop()` throws). `stop()` removes it.
   */
  readonly kubeconfigPath: string;
  /** The kubeconfig YAML. */
  readonly kubeconfig: string;
  readonly server: ApiServer;
  /** The backend the server stores into (`memory`, or `sqlite` in a temporary directory); `custom` for a passed `server.store`. */
  readonly storage: StorageBackend | 'custom';
  /** The TLS material (CA, admin client certificate), undefined with `insecureHttp`. */
  readonly tls: GeneratedTls | undefined;
  /** A REST client (`@orchard/client`) connected as the admin (made when first read). */
  readonly client: RestClient;
  /** One HTTP request to the server as the admin (client certificate, trusted CA). */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * One request with `path` sent as it is (not resolved: `..` and `%2e` reach the server) and the
   * body as bytes, answering the body as bytes too (Protobuf, CBOR, framing tests).
   */
  raw(method: string, path: string, options?: RawRequestOptions): Promise<RawResponse>;
  /**
   * A kubeconfig file for `user` (a client certificate minted from the test CA; HTTPS only), for
   * running kubectl as someone other than the admin.
   */
  kubeconfigFor(user: TestUser): Promise<string>;
  /**
   * Creates a namespace with a name no other test uses (`<prefix>-<n>-<random>`, default prefix
   * `test`) and answers the name: per-test isolation on a shared server.
   */
  namespace(prefix?: string): Promise<string>;
  /**
   * Puts the server back to the state it had when it had just started: every object written since
   * is deleted, changed ones get their old content, deleted ones come back (store writes, so
   * watches and controllers follow; resourceVersions keep increasing). A few milliseconds in memory.
   */
  reset(): Promise<void>;
  /** Applies the objects of YAML files (multi-document) with server-side apply; see `loadFixtures`. */
  loadFixtures(files: string | readonly string[], options?: LoadFixturesOptions): Promise<unknown[]>;
  /** The fake clock passed as `clock`, if any. */
  readonly clock: FakeClock | undefined;
  /** Stops the server and removes its temp directory. */
  stop(): Promise<void>;
}

// Generating a CA and two certificates is the slow part (~20 ms); share them in the process.
let tlsPromise: Promise<GeneratedTls> | undefined;
function sharedTls(): Promise<GeneratedTls> {
  tlsPromise ??= generateServerTls();
  return tlsPromise;
}

/** The TLS contexts of the admin's and the anonymous client, per process TLS material (`clientContexts`). */
const sharedClientContexts = new WeakMap<GeneratedTls, { admin: SecureContext; anonymous: SecureContext }>();

/**
 * The client contexts every test server of the process shares: an agent given a key and certificate
 * parses them (and the CA) again for each connection it opens, ~1.5 ms a test server on its first
 * requests.
 */
function clientContexts(tls: GeneratedTls): { admin: SecureContext; anonymous: SecureContext } {
  let c = sharedClientContexts.get(tls);
  if (!c) {
    c = {
      admin: createSecureContext({ ca: tls.ca.cert, cert: tls.admin.cert, key: tls.admin.key }),
      anonymous: createSecureContext({ ca: tls.ca.cert }),
    };
    sharedClientContexts.set(tls, c);
  }
  return c;
}

/** Starts the reference server in-process on a free loopback port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const flavor =
    typeof options.flavor === 'string'
      ? flavorByName(options.flavor)
      : (options.flavor ?? flavorByName('orch'));
  const insecure = options.insecureHttp === true;
  const tls = insecure ? undefined : await sharedTls();
  // The per-server temp dir, made on first use (durable data, kubeconfig files): most starts need none.
  let madeDir: string | undefined;
  const dir = () => (madeDir ??= mkdtempSync(join(tmpdir(), 'orchard-test-')));
  const removeDir = async () => {
    if (madeDir !== undefined) await rm(madeDir, { recursive: true, force: true });
  };
  // After the TLS material (its validity must follow the real clock), before anything is stamped.
  const uninstallClock = options.clock ? installFakeClock(options.clock) : undefined;
  // A store the caller passes is theirs to close; a durable one opened here is closed by stop().
  // Memory is the server's own default store, as before.
  const backend = options.storage ?? testStorageBackend();
  const own = options.server?.store === undefined && backend !== 'memory';
  const etcd = own && backend === 'etcd' ? await startOwnEtcd() : undefined;
  let opened: Awaited<ReturnType<typeof openStorage>> | undefined;
  try {
    opened = own
      ? await openStorage({
          backend,
          dataDir: join(dir(), 'data'),
          ...(etcd ? { etcd: { servers: etcd.endpoints } } : {}),
        })
      : undefined;
  } catch (e) {
    await etcd?.stop();
    uninstallClock?.();
    throw e;
  }
  let launched: Awaited<ReturnType<typeof launchApiServer>>;
  try {
    launched = await launchApiServer({
      port: 0,
      insecureHttp: insecure,
      ...(tls ? { tls } : {}),
      ...(options.publishRootCa ? { publishRootCa: true } : {}),
      server: {
        ...options.server,
        ...(opened ? { store: opened.store } : {}),
        flavor,
        ...(options.authorization === undefined
          ? {}
          : {
              authorizationModes:
                typeof options.authorization === 'string'
                  ? [options.authorization]
                  : [...options.authorization],
            }),
      },
    });
  } catch (e) {
    await opened?.store.close();
    await etcd?.stop();
    await removeDir();
    uninstallClock?.();
    throw e;
  }
  // The state reset() returns to: the bootstrap objects, once the start-up controllers are done.
  await launched.server.lifecycle.idle();
  const startState = await snapshotServer(launched.server);
  let kubeconfigPath: string | undefined;
  let stopped = false;
  // The agents and the REST client are made on first use (many tests use one of them, or none).
  let adminAgent: Agent | undefined;
  let anonAgent: Agent | undefined;
  const agentOf = (tls: GeneratedTls, anonymous: boolean): Agent => {
    if (anonymous) {
      anonAgent ??= new Agent({ secureContext: clientContexts(tls).anonymous, keepAlive: false });
      return anonAgent;
    }
    adminAgent ??= new Agent({ secureContext: clientContexts(tls).admin, keepAlive: true });
    return adminAgent;
  };
  const userKey = (u: TestUser) => JSON.stringify([u.username, u.groups ?? []]);
  const userCerts = new Map<string, ReturnType<typeof issueClientCert>>();
  const certFor = (u: TestUser) => {
    if (!tls) throw new Error('startTestServer: acting as another user needs HTTPS (not insecureHttp)');
    let c = userCerts.get(userKey(u));
    if (!c) {
      c = issueClientCert(tls.ca, u.username, u.groups ?? []);
      userCerts.set(userKey(u), c);
    }
    return c;
  };
  const userAgents = new Map<string, Agent>();
  const agentFor = async (u: TestUser): Promise<Agent> => {
    let a = userAgents.get(userKey(u));
    if (!a) {
      const c = await certFor(u);
      // One context for the agent's connections (given key and certificate, each would parse its own).
      const secureContext = createSecureContext({ ca: tls?.ca.cert, cert: c.cert, key: c.key });
      a = new Agent({ secureContext, keepAlive: false });
      userAgents.set(userKey(u), a);
    }
    return a;
  };

  const { hostname, port } = new URL(launched.url);
  const raw = async (method: string, path: string, ro: RawRequestOptions = {}): Promise<RawResponse> => {
    const asAgent = ro.as ? await agentFor(ro.as) : undefined;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...ro.headers };
      const body = typeof ro.body === 'string' ? Buffer.from(ro.body) : ro.body;
      if (body !== undefined) headers['content-length'] = String(body.byteLength);
      const send = tls ? httpsRequest : httpRequest;
      const req = send(
        {
          host: hostname,
          port,
          path,
          method,
          headers,
          ...(tls ? { agent: asAgent ?? agentOf(tls, ro.anonymous === true) } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json, body: bytes });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
  let userConfigs = 0;

  const request = async (method: string, path: string, ro: RequestOptions = {}): Promise<TestResponse> => {
    const url = new URL(path, launched.url);
    const headers: Record<string, string> = { ...ro.headers };
    let body: Uint8Array | string | undefined;
    if (typeof ro.body === 'string' || ro.body instanceof Uint8Array) body = ro.body;
    else if (ro.body !== undefined) {
      body = JSON.stringify(ro.body);
      headers['content-type'] ??= 'application/json';
    }
    const {
      status,
      headers: h,
      text,
      bytes,
      json,
    } = await raw(method, `${url.pathname}${url.search}`, {
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(ro.anonymous ? { anonymous: true } : {}),
      ...(ro.as ? { as: ro.as } : {}),
    });
    return { status, headers: h, text, bytes, json };
  };

  let restClient: RestClient | undefined;
  const client = (): RestClient =>
    (restClient ??= createRestClient(
      tls
        ? {
            server: launched.url,
            ca: tls.ca.cert,
            cert: tls.admin.cert,
            key: tls.admin.key,
            userAgent: 'orchard-testing',
          }
        : { server: launched.url, userAgent: 'orchard-testing' },
    ));
  const self: TestServer = {
    url: launched.url,
    get kubeconfigPath() {
      if (kubeconfigPath === undefined) {
        if (stopped) throw new Error('startTestServer: kubeconfigPath read after stop()');
        kubeconfigPath = join(dir(), 'kubeconfig');
        writeFileSync(kubeconfigPath, launched.kubeconfig, { mode: 0o600 });
      }
      return kubeconfigPath;
    },
    kubeconfig: launched.kubeconfig,
    server: launched.server,
    storage: options.server?.store === undefined ? backend : 'custom',
    tls,
    get client() {
      return client();
    },
    clock: options.clock,
    namespace: (prefix) => createTestNamespace(client(), prefix ? { prefix } : {}),
    reset: () => resetServer(launched.server, startState),
    loadFixtures: (files, o) => loadFixtures(self, files, o),
    request,
    raw,
    async kubeconfigFor(user) {
      if (stopped) throw new Error('startTestServer: kubeconfigFor() after stop()');
      const c = await certFor(user);
      const path = join(dir(), `user-${++userConfigs}.kubeconfig`);
      const text = buildKubeconfig({
        server: launched.url,
        caPem: (tls as GeneratedTls).ca.cert,
        clientCertPem: c.cert,
        clientKeyPem: c.key,
      });
      await writeFile(path, text, { mode: 0o600 });
      return path;
    },
    async stop() {
      adminAgent?.destroy();
      anonAgent?.destroy();
      for (const a of userAgents.values()) a.destroy();
      await launched.stop();
      await opened?.store.close();
      await etcd?.stop();
      stopped = true;
      await removeDir();
      uninstallClock?.();
    },
  };
  return self;
}
