import { startTestServer, type TestServer, type TestUser } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Denied by default (spec doc 2 §1): for `system:anonymous` and for a fresh authenticated user with no
 * bindings, every served resource path with every verb discovery lists (and every sub-resource) is
 * refused with 403, except what the default roles open: the self reviews for authenticated users,
 * and the non-resource paths of system:public-info-viewer (everyone) and system:discovery
 * (authenticated users). Under both flavors: the served groups are the flavor's.
 */
type Obj = Record<string, any>;

interface Served {
  readonly base: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly verbs: string[];
}

const selfReviews = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews']);

describe.each(['orch', 'kubernetes'] as const)(
  'every served path and verb for a user without bindings (%s flavor)',
  (flavor) => {
    let api: TestServer;
    const served: Served[] = [];
    beforeAll(async () => {
      api = await startTestServer({ flavor });
      const groups = ((await api.request('GET', '/apis')).json as Obj).groups as Obj[];
      const versions = [
        '/api/v1',
        ...groups.flatMap((g) => (g.versions as Obj[]).map((v) => `/apis/${v.groupVersion}`)),
      ];
      for (const base of versions) {
        const list = (await api.request('GET', base)).json as Obj;
        for (const r of list.resources as Obj[])
          served.push({ base, resource: r.name, namespaced: r.namespaced, verbs: r.verbs ?? [] });
      }
    });
    afterAll(async () => {
      await api.stop();
    });

    const requestsFor = (s: Served): [string, string, unknown?][] => {
      const [resource, sub] = s.resource.split('/') as [string, string | undefined];
      const coll = `${s.base}/${s.namespaced ? 'namespaces/default/' : ''}${resource}`;
      const one = `${coll}/x${sub ? `/${sub}` : ''}`;
      const out: [string, string, unknown?][] = [];
      for (const v of s.verbs) {
        if (v === 'get') out.push(['GET', one]);
        if (v === 'list' && !sub) out.push(['GET', coll]);
        if (v === 'watch' && !sub) out.push(['GET', `${coll}?watch=1&timeoutSeconds=1`]);
        if (v === 'create') out.push(['POST', sub ? one : coll, {}]);
        if (v === 'update') out.push(['PUT', one, {}]);
        if (v === 'patch') out.push(['PATCH', one, '{}']);
        if (v === 'delete') out.push(['DELETE', one]);
        if (v === 'deletecollection') out.push(['DELETE', coll]);
      }
      return out;
    };

    for (const [who, user] of [
      ['a fresh authenticated user', { username: 'nobody' } as TestUser],
      ['system:anonymous', undefined],
    ] as const) {
      it(`${who}: 403 everywhere but the self reviews`, async () => {
        expect(served.length).toBeGreaterThan(20);
        let asked = 0;
        for (const s of served) {
          for (const [method, path, body] of requestsFor(s)) {
            const r = await api.request(method, path, {
              ...(user ? { as: user } : { anonymous: true }),
              ...(body !== undefined ? { body } : {}),
              ...(method === 'PATCH' ? { headers: { 'content-type': 'application/merge-patch+json' } } : {}),
            });
            asked++;
            const opened = user !== undefined && selfReviews.has(s.resource) && method === 'POST';
            if (opened) expect(r.status, `${method} ${path}`).not.toBe(403);
            else expect(r.status, `${method} ${path}: ${r.text.slice(0, 200)}`).toBe(403);
          }
        }
        expect(asked).toBeGreaterThan(100);
      });

      it(`${who}: non-resource paths open only as the default roles say`, async () => {
        const everyone = ['/version', '/healthz', '/livez', '/readyz'];
        const authenticated = ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/openapi/v3'];
        const nobody = ['/metrics', '/healthz/ping', '/logs', '/debug/pprof/', '/'];
        const opts = user ? { as: user } : { anonymous: true };
        for (const p of everyone) expect((await api.request('GET', p, opts)).status, p).toBe(200);
        for (const p of authenticated)
          expect((await api.request('GET', p, opts)).status, p).toBe(user ? 200 : 403);
        for (const p of nobody) expect((await api.request('GET', p, opts)).status, p).toBe(403);
        expect((await api.request('POST', '/version', opts)).status).toBe(403);
      });
    }
  },
);
