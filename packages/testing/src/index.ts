/**
 * @orchard/testing — a real Orchard API server inside your test process.
 *
 *   const api = await startTestServer({ flavor: 'kubernetes' });
 *   const res = await api.request('GET', '/api/v1/namespaces');
 *   await api.stop();
 */

export { createAndAuthorize } from './authorization.js';
export type { CrdFixture, CrdFixtureOptions } from './crd.js';
export { crdCollectionPath, crdFixture, installCrd } from './crd.js';
export type { FakeClock } from './fake-clock.js';
export { createFakeClock, installFakeClock } from './fake-clock.js';
export type { FixtureTarget, LoadFixturesOptions } from './fixtures.js';
export { loadFixtures } from './fixtures.js';
export type { ConnectedTestServer, ProvideContext, SharedTestServer } from './global-setup.js';
export { connectTestServer, orchardGlobalSetup } from './global-setup.js';
export type { KubectlOptions, KubectlResult } from './kubectl.js';
export { kubectl, kubectlAvailable, kubectlBinary } from './kubectl.js';
export { createTestNamespace } from './namespace.js';
export { resetServer, snapshotServer } from './reset.js';
export type { ServiceAccountSigningKey } from './signing-key.js';
export { newServiceAccountSigningKey, serviceAccountTokenAuthentication } from './signing-key.js';
export type {
  RawRequestOptions,
  RawResponse,
  RequestOptions,
  TestResponse,
  TestServer,
  TestServerOptions,
  TestUser,
} from './test-server.js';
export { startTestServer } from './test-server.js';
export { testStorageBackend } from './test-storage.js';
export { waitFor } from './wait-for.js';
export type { CollectedEvent, WatchCollector } from './watch.js';
export { openWatch } from './watch.js';
