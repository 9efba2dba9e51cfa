import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type KubectlResult,
  kubectl,
  newServiceAccountSigningKey,
  startTestServer,
  type TestServer,
} from '@orchard/testing';
import { afterAll, beforeAll } from 'vitest';

/** What the kubectl-wire suites share: the server, kubectl runners and manifest files. */
export interface WireServer {
  /** The running server (set in beforeAll). */
  readonly api: () => TestServer;
  /** The scratch directory (manifests, extra kubeconfigs). */
  readonly dir: string;
  /** kubectl with the admin kubeconfig. */
  k(...args: string[]): Promise<KubectlResult>;
  /** kubectl in namespace `wire`. */
  kn(...args: string[]): Promise<KubectlResult>;
  /** Writes a manifest file; returns its path. */
  file(text: string): string;
  /** A ConfigMap manifest in namespace `wire` (`data` is the indented YAML body of `data:`). */
  cm(name: string, data: string): string;
}

/**
 * Registers beforeAll/afterAll that start a `kubernetes`-flavor server with service-account tokens
 * on (`create token`, and a 401 for a token nobody accepts, as a cluster has), namespaces `wire`
 * (ConfigMaps a, b, c labelled app=x|y|x) and `empty`.
 */
export function useWireServer(): WireServer {
  let api: TestServer | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'orchard-kubectl-wire-'));
  const server = () => {
    if (!api) throw new Error('the wire server is not started');
    return api;
  };
  let files = 0;
  beforeAll(async () => {
    const signingKey = newServiceAccountSigningKey();
    api = await startTestServer({
      flavor: 'kubernetes',
      server: {
        authentication: {
          serviceAccounts: {
            keys: [],
            signingKey,
            issuers: ['https://kubernetes.default.svc.cluster.local'],
          },
        },
      },
    });
    for (const ns of ['wire', 'empty'])
      await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    for (const [name, app] of [
      ['a', 'x'],
      ['b', 'y'],
      ['c', 'x'],
    ] as const)
      await api.request('POST', '/api/v1/namespaces/wire/configmaps', {
        body: { metadata: { name, labels: { app } }, data: { k: name } },
      });
  });
  afterAll(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    api: server,
    dir,
    k: (...args) => kubectl(args, { kubeconfig: server().kubeconfigPath }),
    kn: (...args) => kubectl(['-n', 'wire', ...args], { kubeconfig: server().kubeconfigPath }),
    file(text) {
      const path = join(dir, `m${++files}.yaml`);
      writeFileSync(path, text);
      return path;
    },
    cm: (name, data) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: wire\ndata:\n${data}`,
  };
}
