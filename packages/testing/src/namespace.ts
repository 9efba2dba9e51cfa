import type { RestClient } from '@orchard/client';

let created = 0;

/**
 * Creates a namespace with a name no other test uses (`<prefix>-<n>-<random>`, a valid DNS label)
 * and answers its name: one per test keeps tests that share a server apart.
 */
export async function createTestNamespace(
  client: RestClient,
  options: { readonly prefix?: string; readonly labels?: Readonly<Record<string, string>> } = {},
): Promise<string> {
  const prefix = (options.prefix ?? 'test')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 40);
  const name = `${prefix}-${++created}-${Math.random().toString(36).slice(2, 7)}`.replace(/^-+/, 'ns-');
  await client.json({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, ...(options.labels ? { labels: { ...options.labels } } : {}) },
    },
  });
  return name;
}
