import { startTestServer, type TestServer } from '@orchard/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cm, json } from './lifecycle-helpers.js';

/**
 * The §3 state machine against a model: random sequences of create, delete (with a random
 * propagation policy or dry-run) and finalizer edits on a few names; after every step the HTTP
 * status and the stored state (absent / live / Terminating, finalizers, a timestamp that never
 * moves) must match the model.
 */
type State = { kind: 'absent' } | { kind: 'live' | 'terminating'; finalizers: string[]; since?: string };

type Op =
  | { op: 'create'; name: string; finalizers: string[] }
  | { op: 'delete'; name: string; dryRun: boolean }
  | { op: 'setFinalizers'; name: string; finalizers: string[] };

const names = ['a', 'b'];
const finalizerPool = ['example.com/x', 'example.com/y'];
const finalizersArb = fc.subarray(finalizerPool);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    name: fc.constantFrom(...names),
    finalizers: finalizersArb,
  }),
  fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom(...names), dryRun: fc.boolean() }),
  fc.record({
    op: fc.constant('setFinalizers' as const),
    name: fc.constantFrom(...names),
    finalizers: finalizersArb,
  }),
);

describe('deletion state machine against a model (fast-check)', () => {
  let api: TestServer;
  let run = 0;
  beforeAll(async () => {
    // No controllers: only user-visible finalizers matter here, and nothing else writes.
    api = await startTestServer({ insecureHttp: true, server: { lifecycleControllers: false } });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('matches the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const ns = `m${run++}`;
        expect(
          (await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
        ).toBe(201);
        const base = `/api/v1/namespaces/${ns}/configmaps`;
        const model = new Map<string, State>(names.map((n) => [n, { kind: 'absent' }]));
        for (const o of ops) {
          const s = model.get(o.name) as State;
          if (o.op === 'create') {
            const r = await api.request('POST', base, { body: cm(o.name, { finalizers: o.finalizers }) });
            if (s.kind === 'absent') {
              expect(r.status).toBe(201);
              model.set(o.name, { kind: 'live', finalizers: o.finalizers });
            } else expect(r.status).toBe(409);
          } else if (o.op === 'delete') {
            const r = await api.request('DELETE', `${base}/${o.name}${o.dryRun ? '?dryRun=All' : ''}`);
            if (s.kind === 'absent') expect(r.status).toBe(404);
            else {
              expect(r.status).toBe(200);
              if (!o.dryRun) {
                if (s.kind === 'live' && s.finalizers.length === 0) model.set(o.name, { kind: 'absent' });
                else if (s.kind === 'live')
                  model.set(o.name, { kind: 'terminating', finalizers: s.finalizers });
              }
            }
          } else {
            const r = await api.request('PATCH', `${base}/${o.name}`, {
              headers: { 'content-type': 'application/merge-patch+json' },
              body: JSON.stringify({ metadata: { finalizers: o.finalizers.length ? o.finalizers : null } }),
            });
            if (s.kind === 'absent') expect(r.status).toBe(404);
            else if (s.kind === 'terminating' && o.finalizers.some((f) => !s.finalizers.includes(f)))
              expect(r.status).toBe(422);
            else {
              expect(r.status).toBe(200);
              if (s.kind === 'terminating' && o.finalizers.length === 0)
                model.set(o.name, { kind: 'absent' });
              else model.set(o.name, { ...s, finalizers: o.finalizers });
            }
          }
          // Compare every name with the model.
          for (const n of names) {
            const m = model.get(n) as State;
            const g = await api.request('GET', `${base}/${n}`);
            if (m.kind === 'absent') {
              expect(g.status).toBe(404);
              continue;
            }
            expect(g.status).toBe(200);
            const meta = json<{ metadata: { finalizers?: string[]; deletionTimestamp?: string } }>(
              g,
            ).metadata;
            expect(meta.finalizers ?? []).toEqual(m.finalizers);
            expect(Boolean(meta.deletionTimestamp)).toBe(m.kind === 'terminating');
            if (m.kind === 'terminating') {
              if (m.since) expect(meta.deletionTimestamp).toBe(m.since);
              else m.since = meta.deletionTimestamp;
            }
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
