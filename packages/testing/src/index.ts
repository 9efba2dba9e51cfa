/**
 * @orchard/testing — a real Orchard API server inside your test process.
 *
 *   const api = await startTestServer({ flavor: 'kubernetes' });
 *   const res = await api.request('GET', '/api/v1/namespaces');
 *   await api.stop();
 */

export type { KubectlOptions, KubectlResult } from './kubectl.js';
export { kubectl, kubectlAvailable, kubectlBinary } from './kubectl.js';
export type { RequestOptions, TestResponse, TestServer, TestServerOptions } from './test-server.js';
export { startTestServer, testStorageBackend } from './test-server.js';
export { waitFor } from './wait-for.js';
