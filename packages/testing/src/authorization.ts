import type { TestServer } from './test-server.js';

/**
 * Creates an object as the admin (POST `path`, expecting 201) and resolves once the server's
 * authorization reflects it: RBAC decisions, and the Node authorizer's graph for pods. Throws with
 * the status and body when the create fails. Returns the created object.
 */
export async function createAndAuthorize(
  api: TestServer,
  path: string,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const r = await api.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: HTTP ${r.status} ${r.text}`);
  const obj = r.json as Record<string, any>;
  await api.server.authorization.synced(Number(obj.metadata.resourceVersion));
  return obj;
}
