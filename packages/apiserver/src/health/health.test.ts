import { describe, expect, it } from 'vitest';
import { createHealthChecks } from './health.js';

function setup() {
  const h = createHealthChecks();
  let storeUp = true;
  h.add({ name: 'ping', check: () => undefined }, ['livez', 'readyz', 'healthz']);
  h.add({ name: 'etcd', check: () => (storeUp ? undefined : 'store down') }, ['livez', 'readyz', 'healthz']);
  h.add({ name: 'shutdown', check: () => undefined }, ['readyz']);
  h.addHook('start-things');
  return { h, setStore: (up: boolean) => (storeUp = up) };
}

const q = (s = '') => new URLSearchParams(s);

describe('health checks', () => {
  it('reports a post-start hook as failing until it completes', async () => {
    const { h } = setup();
    expect((await h.evaluate('livez', undefined, q())).code).toBe(500);
    h.completeHook('start-things');
    expect(await h.evaluate('livez', undefined, q())).toEqual({ code: 200, body: 'ok' });
  });

  it('prints one line per check with verbose, and the summary', async () => {
    const { h } = setup();
    h.completeHook('start-things');
    const r = await h.evaluate('readyz', undefined, q('verbose'));
    expect(r.body).toBe(
      '[+]ping ok\n[+]etcd ok\n[+]shutdown ok\n[+]poststarthook/start-things ok\nreadyz check passed\n',
    );
  });

  it('withholds the reason of a failure and answers 500 with every line', async () => {
    const { h, setStore } = setup();
    h.completeHook('start-things');
    setStore(false);
    const r = await h.evaluate('livez', undefined, q());
    expect(r.code).toBe(500);
    expect(r.body).toContain('[-]etcd failed: reason withheld');
    expect(r.body).toMatch(/livez check failed\n$/);
  });

  it('excludes checks (repeatable and comma-separated), warning about unknown names', async () => {
    const { h, setStore } = setup();
    setStore(false);
    const r = await h.evaluate(
      'livez',
      undefined,
      q('verbose&exclude=etcd&exclude=poststarthook/start-things,nope'),
    );
    expect(r.code).toBe(200);
    expect(r.body).toContain('[+]etcd excluded: ok');
    expect(r.body).toContain('[+]poststarthook/start-things excluded: ok');
    expect(r.body).toContain('warn: some health checks cannot be excluded: no matches for "nope"');
  });

  it('serves single checks by name, 404 for unknown ones, per endpoint', async () => {
    const { h, setStore } = setup();
    expect(await h.evaluate('livez', 'ping', q())).toEqual({ code: 200, body: 'ok' });
    setStore(false);
    expect((await h.evaluate('livez', 'etcd', q())).code).toBe(500);
    expect((await h.evaluate('livez', 'shutdown', q())).code).toBe(404);
    expect((await h.evaluate('readyz', 'shutdown', q())).code).toBe(200);
  });

  it('takes unfinished post-start hooks as passing on /livez during --livez-grace-period only', async () => {
    let clock = 1_000;
    const h = createHealthChecks({ livezGracePeriodMs: 5_000, now: () => clock });
    h.add({ name: 'ping', check: () => undefined }, ['livez', 'readyz']);
    h.addHook('rbac/bootstrap-roles');
    expect(await h.evaluate('livez', undefined, q())).toEqual({ code: 200, body: 'ok' });
    expect((await h.evaluate('livez', 'poststarthook/rbac/bootstrap-roles', q())).code).toBe(200);
    // Readiness is never assumed.
    expect((await h.evaluate('readyz', undefined, q())).code).toBe(500);
    clock += 5_000;
    const late = await h.evaluate('livez', undefined, q('verbose'));
    expect(late.code).toBe(500);
    expect(late.body).toContain('[-]poststarthook/rbac/bootstrap-roles failed: reason withheld');
    h.completeHook('rbac/bootstrap-roles');
    expect((await h.evaluate('livez', undefined, q())).code).toBe(200);
  });
});
