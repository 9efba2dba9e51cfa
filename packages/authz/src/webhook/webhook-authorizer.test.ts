import type { FetchLike } from '@orchard/authn';
import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { type AuthorizationAttributes, authorizationAttributes } from '../attributes.js';
import { compileMatchConditions } from './match-conditions.js';
import { subjectAccessReviewSpec } from './subject-access-review.js';
import { createWebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook-authorizer.js';

const pods = (username: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes =>
  authorizationAttributes({
    user: { username, groups: ['system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/pods/p',
    apiVersion: 'v1',
    namespace: 'ns',
    resource: 'pods',
    name: 'p',
    ...extra,
  });

/** A fake webhook: answers by user name, counts calls, records bodies. */
function fakeWebhook(answer: (spec: Record<string, unknown>) => string | Error | { status: number }) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: FetchLike = async (_url, init) => {
    const body = JSON.parse(init?.body ?? '{}') as Record<string, unknown>;
    bodies.push(body);
    const a = answer(body.spec as Record<string, unknown>);
    if (a instanceof Error) throw a;
    if (typeof a === 'object') return new Response('oops', { status: a.status });
    return new Response(a, { status: 200 });
  };
  return { fetch, bodies };
}

const sar = (status: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status });

function byUser(spec: Record<string, unknown>): string {
  if (spec.user === 'alice') return sar({ allowed: true, reason: 'alice may' });
  if (spec.user === 'mallory') return sar({ allowed: false, denied: true, reason: 'no mallory' });
  return sar({ allowed: false });
}

function authorizer(fetch: FetchLike, extra: Partial<WebhookAuthorizerOptions> = {}) {
  let t = 1_000_000;
  const clock = { advance: (ms: number) => (t += ms) };
  const z = createWebhookAuthorizer({
    connection: { server: 'https://webhook.test/authorize' },
    flavor: kubernetesFlavor,
    version: 'v1',
    fetch,
    now: () => t,
    ...extra,
  });
  return { z, clock };
}

describe('webhook authorizer', () => {
  it('allow, deny and no opinion come from status.allowed/denied with the reason', async () => {
    const w = fakeWebhook(byUser);
    const { z } = authorizer(w.fetch);
    expect(await z.authorize(pods('alice'))).toEqual({ decision: 'allow', reason: 'alice may' });
    expect(await z.authorize(pods('mallory'))).toEqual({ decision: 'deny', reason: 'no mallory' });
    expect(await z.authorize(pods('bob'))).toEqual({ decision: 'no-opinion', reason: '' });
    expect(w.bodies[0]).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: 'ns',
          verb: 'get',
          group: '',
          version: 'v1',
          resource: 'pods',
          subresource: '',
          name: 'p',
        },
        user: 'alice',
        groups: ['system:authenticated'],
      },
    });
  });

  it('v1beta1 names the groups `group`; non-resource requests send path and verb', () => {
    const a = pods('u', { isResourceRequest: false, path: '/healthz', verb: 'get' });
    expect(subjectAccessReviewSpec(a, 'v1beta1')).toEqual({
      nonResourceAttributes: { path: '/healthz', verb: 'get' },
      user: 'u',
      group: ['system:authenticated'],
    });
  });

  it('selectors are sent as requirements', () => {
    const a = pods('u', {
      name: '',
      verb: 'list',
      fieldSelector: 'spec.nodeName=n1',
      labelSelector: 'app in (a,b),!x',
    });
    const ra = subjectAccessReviewSpec(a, 'v1').resourceAttributes as Record<string, unknown>;
    expect(ra.fieldSelector).toEqual({
      requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }],
    });
    expect(ra.labelSelector).toEqual({
      requirements: [
        { key: 'app', operator: 'In', values: ['a', 'b'] },
        { key: 'x', operator: 'DoesNotExist' },
      ],
    });
  });

  it('caches allowed answers for authorizedTTL and others for unauthorizedTTL, answering synchronously', async () => {
    const w = fakeWebhook(byUser);
    const { z, clock } = authorizer(w.fetch, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 10_000 });
    await z.authorize(pods('alice'));
    await z.authorize(pods('bob'));
    expect(w.bodies).toHaveLength(2);
    // Cached: no call, and no promise.
    expect(z.authorize(pods('alice'))).toEqual({ decision: 'allow', reason: 'alice may' });
    expect(z.authorize(pods('bob'))).toEqual({ decision: 'no-opinion', reason: '' });
    expect(w.bodies).toHaveLength(2);
    clock.advance(10_001);
    await z.authorize(pods('bob'));
    z.authorize(pods('alice'));
    expect(w.bodies).toHaveLength(3);
    clock.advance(50_000);
    await z.authorize(pods('alice'));
    expect(w.bodies).toHaveLength(4);
  });

  it('a TTL of 0 disables that cache', async () => {
    const w = fakeWebhook(byUser);
    const { z } = authorizer(w.fetch, { authorizedTtlMs: 0 });
    await z.authorize(pods('alice'));
    await z.authorize(pods('alice'));
    expect(w.bodies).toHaveLength(2);
  });

  it.each([
    ['a transport error', () => new Error('connect ECONNREFUSED')],
    ['a timeout', () => new Error('request timed out after 50 ms')],
    ['an error status', () => ({ status: 500 })],
    ['not JSON', () => '<html>'],
    ['no status', () => JSON.stringify({ kind: 'SubjectAccessReview' })],
    ['a wrong type', () => sar({ allowed: 'yes' })],
    ['another kind', () => JSON.stringify({ kind: 'TokenReview', status: { allowed: true } })],
  ])('%s is the failure policy: NoOpinion or Deny, never cached', async (_what, answer) => {
    for (const failurePolicy of ['NoOpinion', 'Deny'] as const) {
      const w = fakeWebhook(answer);
      const errors: string[] = [];
      const { z } = authorizer(w.fetch, { failurePolicy, onError: (m) => errors.push(m) });
      const want = failurePolicy === 'Deny' ? 'deny' : 'no-opinion';
      expect((await z.authorize(pods('alice'))).decision).toBe(want);
      expect((await z.authorize(pods('alice'))).decision).toBe(want);
      expect(w.bodies).toHaveLength(2);
      expect(errors[0]).toMatch(/^authorization webhook webhook: /);
    }
  });

  it('both allowed and denied is a deny', async () => {
    const { z } = authorizer(fakeWebhook(() => sar({ allowed: true, denied: true })).fetch);
    expect((await z.authorize(pods('x'))).decision).toBe('deny');
  });

  it('match conditions: a false skips without a call, all true calls, an error is the failure policy', async () => {
    const compiled = compileMatchConditions(
      [
        'has(request.resourceAttributes)',
        "request.resourceAttributes.namespace != 'kube-system'",
        "request.user != 'skip'",
      ],
      'm',
    );
    expect(compiled.causes).toEqual([]);
    const w = fakeWebhook(byUser);
    const { z } = authorizer(w.fetch, { matchConditions: compiled.programs, failurePolicy: 'Deny' });
    expect(z.authorize(pods('alice', { namespace: 'kube-system' }))).toEqual({
      decision: 'no-opinion',
      reason: '',
    });
    expect(z.authorize(pods('skip'))).toEqual({ decision: 'no-opinion', reason: '' });
    expect(z.authorize(pods('u', { isResourceRequest: false, path: '/x' }))).toEqual({
      decision: 'no-opinion',
      reason: '',
    });
    expect(w.bodies).toHaveLength(0);
    expect((await z.authorize(pods('alice'))).decision).toBe('allow');
    expect(w.bodies).toHaveLength(1);
    const failing = compileMatchConditions(["request.extra['missing'][0] == 'x'"], 'm');
    for (const [failurePolicy, want] of [
      ['Deny', 'deny'],
      ['NoOpinion', 'no-opinion'],
    ] as const) {
      const e = authorizer(w.fetch, { matchConditions: failing.programs, failurePolicy });
      expect(e.z.authorize(pods('alice'))).toMatchObject({ decision: want });
    }
    expect(w.bodies).toHaveLength(1);
  });

  it('a condition that is not a bool when it runs is an error', () => {
    const c = compileMatchConditions(['request.user'], 'm');
    expect(c.causes).toEqual([]);
    const { z } = authorizer(fakeWebhook(byUser).fetch, {
      matchConditions: c.programs,
      failurePolicy: 'Deny',
    });
    expect(z.authorize(pods('alice'))).toMatchObject({ decision: 'deny' });
  });

  it('huge attributes are not cached', async () => {
    const w = fakeWebhook(byUser);
    const { z } = authorizer(w.fetch);
    const big = pods('alice', { name: 'n'.repeat(10_000) });
    await z.authorize(big);
    await z.authorize(big);
    expect(w.bodies).toHaveLength(2);
  });

  it('says it cannot list rules', () => {
    const { z } = authorizer(fakeWebhook(byUser).fetch);
    expect(z.rulesFor?.({ username: 'u', groups: [] }, 'ns')).toMatchObject({ incomplete: true });
  });
});
