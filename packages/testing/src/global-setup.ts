import { createRestClient, loadKubeconfig, type RestClient, resolveConnection } from '@orchard/client';
import { createTestNamespace } from './namespace.js';
import { startTestServer, type TestServerOptions } from './test-server.js';

/** What the global setup hands to every test file (through vitest's `provide`/`inject`). */
export interface SharedTestServer {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly flavor: string;
}

/** The part of vitest's global-setup context the helper uses (vitest's `TestProject` has it). */
export interface ProvideContext {
  provide(key: 'orchard', value: SharedTestServer): void;
}

/**
 * A vitest `globalSetup` that starts one test server for the whole run and provides its URL and
 * kubeconfig to every test file as `inject('orchard')`; it stops the server when the run ends.
 *
 *   // vitest.global-setup.ts
 *   export default orchardGlobalSetup({ flavor: 'kubernetes' });
 *   // a test file
 *   const api = connectTestServer(inject('orchard'));
 *   const ns = await api.namespace();
 *
 * Test files then share one server: give each test its own namespace (`namespace()`).
 */
export function orchardGlobalSetup(
  options: TestServerOptions = {},
): (ctx: ProvideContext) => Promise<() => Promise<void>> {
  return async (ctx) => {
    const api = await startTestServer(options);
    ctx.provide('orchard', {
      url: api.url,
      kubeconfigPath: api.kubeconfigPath,
      flavor: typeof options.flavor === 'object' ? options.flavor.name : (options.flavor ?? 'orch'),
    });
    return () => api.stop();
  };
}

/** A server started by `orchardGlobalSetup`, seen from a test file. */
export interface ConnectedTestServer extends SharedTestServer {
  /** An admin REST client (from the kubeconfig). */
  readonly client: RestClient;
  /** Creates a namespace no other test uses and answers its name. */
  namespace(prefix?: string): Promise<string>;
}

/** Connects to the server `orchardGlobalSetup` started (pass `inject('orchard')`). */
export function connectTestServer(shared: SharedTestServer | undefined): ConnectedTestServer {
  if (!shared?.kubeconfigPath)
    throw new Error(
      "connectTestServer: nothing provided as 'orchard': add orchardGlobalSetup() to globalSetup",
    );
  const client = createRestClient({
    ...resolveConnection(loadKubeconfig(shared.kubeconfigPath)),
    userAgent: 'orchard-testing',
  });
  return { ...shared, client, namespace: (prefix) => createTestNamespace(client, prefix ? { prefix } : {}) };
}
