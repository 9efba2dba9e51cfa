/**
 * @orchard/testing — a real Orchard API server inside your test process.
 *
 *   const api = await startTestServer({ flavor: 'kubernetes' });
 *   const res = await api.request('GET', '/api/v1/namespaces');
 *   await api.stop();
 */
export type { TestServer, TestServerOptions, TestResponse, RequestOptions } from './test-server.js';
export { startTestServer } from './test-server.js';
export type { KubectlResult, KubectlOptions } from './kubectl.js';
export { kubectl, kubectlAvailable } from './kubectl.js';
