import { type KubectlResult, kubectl, startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll } from 'vitest';

/** A kubernetes-flavor server for the enclosing describe, and stock kubectl bound to its kubeconfig. */
export interface KubectlSuite {
  /** The server; read inside tests (it starts in the describe's beforeAll). */
  readonly api: TestServer;
  /** Runs kubectl with the kubeconfig the server wrote. */
  k(...args: string[]): Promise<KubectlResult>;
}

/**
 * Starts a kubernetes-flavor test server in the enclosing describe's beforeAll and stops it in its
 * afterAll: the setup every kubectl suite repeated.
 */
export function kubectlSuite(): KubectlSuite {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const suite: KubectlSuite = {
    get api() {
      if (server === undefined) throw new Error('the kubectl suite server starts in beforeAll');
      return server;
    },
    k: (...args) => kubectl(args, { kubeconfig: suite.api.kubeconfigPath }),
  };
  return suite;
}
