/**
 * The Webhook authorizer's decision cost: an answer from its TTL cache (synchronous) against a real
 * SubjectAccessReview round-trip to a webhook on loopback HTTP (TTL 0), in the same run; plus a
 * request its match conditions skip.
 *
 *   pnpm bench authz      (or: npx tsx packages/authz/bench/webhook.bench.ts)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { authorizationAttributes, compileMatchConditions, createWebhookAuthorizer } from '../src/index.js';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    res.end(JSON.stringify({ kind: 'SubjectAccessReview', status: { allowed: true, reason: 'ok' } })),
  );
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const connection = { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize` };
const attrs = authorizationAttributes({
  user: { username: 'alice', groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  apiVersion: 'v1',
  namespace: 'dev',
  resource: 'pods',
  name: 'web',
});
const cached = createWebhookAuthorizer({ connection, version: 'v1' });
const uncached = createWebhookAuthorizer({ connection, version: 'v1', authorizedTtlMs: 0 });
const conditions = compileMatchConditions(["request.resourceAttributes.namespace != 'dev'"], 'm');
const skipping = createWebhookAuthorizer({ connection, version: 'v1', matchConditions: conditions.programs });
// Prime the cache, and check every path decides as expected.
if ((await cached.authorize(attrs)).decision !== 'allow') throw new Error('webhook did not allow');
if (cached.authorize(attrs) instanceof Promise) throw new Error('a cached answer must be synchronous');
if ((await uncached.authorize(attrs)).decision !== 'allow') throw new Error('webhook did not allow');
if (skipping.authorize(attrs) instanceof Promise) throw new Error('a skipped request must not call');

summary(() => {
  bench('webhook: cached answer (TTL hit)', () => {
    do_not_optimize(cached.authorize(attrs));
  });
  bench('webhook: match condition false (skipped, no call)', () => {
    do_not_optimize(skipping.authorize(attrs));
  });
  bench('baseline: webhook round-trip on loopback (TTL 0)', async () => {
    do_not_optimize(await uncached.authorize(attrs));
  });
});
await run();
server.close();
