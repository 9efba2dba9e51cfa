import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiServerOptions } from './options.js';
import { type ApiServer, createApiServer } from './server.js';
import { type GeneratedTls, generateServerTls, toSubjectAltNames } from './tls/certs.js';
import { buildKubeconfig } from './tls/kubeconfig.js';
import { loadOrCreateTls, type TlsDirResult } from './tls/tls-dir.js';

/** Where `launchApiServer` listens and which TLS material and kubeconfig it uses or writes. */
export interface LaunchOptions {
  /** Port to listen on; 0 = any free port. Default 0. */
  readonly port?: number;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Plain HTTP, every request is the admin; the kubeconfig has no credentials. Default false. */
  readonly insecureHttp?: boolean;
  /** TLS material to reuse (tests cache it per process); generated when absent. */
  readonly tls?: GeneratedTls;
  /**
   * Extra names (DNS names or IP addresses) the generated serving certificate is valid for, beside
   * `localhost`, `127.0.0.1`, `::1` and `host` itself (upstream's `--tls-san`-like
   * `--apiserver-cert-extra-sans`). Ignored when `tls` is given. Default none.
   */
  readonly tlsSubjectAltNames?: readonly string[];
  /**
   * Directory where the generated CA, serving and admin certificates are kept and reused on restart
   * (the CLI's `<data-dir>/tls`), so kubeconfigs written before stay valid; the serving certificate is
   * reissued from the same CA when `host`/`tlsSubjectAltNames` change. Ignored when `tls` is given.
   * Default: none (fresh material every start).
   */
  readonly tlsDir?: string;
  /** Where to write the admin kubeconfig; not written when absent. */
  readonly kubeconfigOut?: string;
  /** `--client-ca-file`: the CA bundle client certificates chain to. Default: the generated CA. */
  readonly clientCaPem?: string;
  /** `--requestheader-client-ca-file`: the authenticating proxy's CA. Default none (method off). */
  readonly requestHeaderClientCaPem?: string;
  /**
   * Publish the CA that signed the serving certificate in every namespace as the flavor's root-CA
   * ConfigMap (`rootCaBundle`), as a cluster's controller manager does. Default false: a bare API
   * server, as test environments run it.
   */
  readonly publishRootCa?: boolean;
  /** Passed to `createApiServer`. */
  readonly server?: Partial<ApiServerOptions>;
}

/** A listening server: URL and port, the admin kubeconfig, TLS material and `stop()`. */
export interface LaunchedServer {
  readonly server: ApiServer;
  readonly url: string;
  readonly port: number;
  /** The admin kubeconfig (YAML). */
  readonly kubeconfig: string;
  readonly kubeconfigPath: string | undefined;
  readonly tls: GeneratedTls | undefined;
  /** What was reused from and written to `tlsDir` (undefined without one). */
  readonly tlsDir: TlsDirResult | undefined;
  stop(): Promise<void>;
}

/** The names the generated serving certificate adds to the loopback ones: `host` and `tlsSubjectAltNames`. */
export function servingCertNames(options: Pick<LaunchOptions, 'host' | 'tlsSubjectAltNames'>): {
  dns: string[];
  ip: string[];
} {
  return toSubjectAltNames([options.host ?? '127.0.0.1', ...(options.tlsSubjectAltNames ?? [])]);
}

/** Whether `host` only reaches this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(h) ||
    /^::ffff:127(?:\.\d{1,3}){3}$/.test(h)
  );
}

/**
 * Starts the reference server the way the CLI does: TLS with a generated CA (or plain HTTP) and an
 * admin kubeconfig. Plain HTTP serves every request as the admin, so it is refused on a
 * non-loopback `host`.
 */
export async function launchApiServer(options: LaunchOptions = {}): Promise<LaunchedServer> {
  const insecure = options.insecureHttp === true;
  const host = options.host ?? '127.0.0.1';
  if (insecure && !isLoopback(host))
    throw new Error(
      `insecure HTTP serves every request as the admin and is refused on the non-loopback address ${host}`,
    );
  let tlsDir: TlsDirResult | undefined;
  if (!insecure && !options.tls && options.tlsDir !== undefined)
    tlsDir = await loadOrCreateTls(options.tlsDir, servingCertNames(options));
  const tls = insecure
    ? undefined
    : (options.tls ?? tlsDir?.tls ?? (await generateServerTls(servingCertNames(options))));
  const server = createApiServer({
    ...options.server,
    ...(tls
      ? {
          tls: {
            cert: tls.serving.cert,
            key: tls.serving.key,
            clientCa: options.clientCaPem ?? tls.ca.cert,
            ...(options.requestHeaderClientCaPem
              ? { requestHeaderClientCa: options.requestHeaderClientCaPem }
              : {}),
          },
          ...(options.publishRootCa ? { rootCaBundle: tls.ca.cert } : {}),
        }
      : {}),
  });
  const { url, port } = await server.listen(options.port ?? 0, host);
  const kubeconfig = buildKubeconfig(
    tls
      ? { server: url, caPem: tls.ca.cert, clientCertPem: tls.admin.cert, clientKeyPem: tls.admin.key }
      : { server: url },
  );
  if (options.kubeconfigOut) {
    await mkdir(dirname(options.kubeconfigOut), { recursive: true });
    await writeFile(options.kubeconfigOut, kubeconfig, { mode: 0o600 });
  }
  return {
    server,
    url,
    port,
    kubeconfig,
    kubeconfigPath: options.kubeconfigOut,
    tls,
    tlsDir,
    stop: () => server.close(),
  };
}
