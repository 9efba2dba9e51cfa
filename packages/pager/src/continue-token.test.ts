import { describe, expect, it } from 'vitest';
import { createContinueCodec } from './continue-token.js';
import { inconsistentContinueMessage, isPagerError } from './errors.js';
import { buildListMeta } from './list-meta.js';

describe('createContinueCodec', () => {
  it('round-trips the snapshot revision and start key, opaquely', async () => {
    const c = createContinueCodec({ now: () => 1000 });
    const t = await c.encode({ revision: 17, startKey: '/registry/cm/default/b\x00' });
    expect(t).not.toContain('registry');
    expect(t).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await c.decode(t)).toEqual({
      revision: 17,
      startKey: '/registry/cm/default/b\x00',
      issuedAt: 1000,
    });
  });

  it('rejects a token whose payload was changed (tamper-evident)', async () => {
    const c = createContinueCodec();
    const t = await c.encode({ revision: 17, startKey: 'k' });
    const [body, sig] = t.split('.') as [string, string];
    const forged = btoa(JSON.stringify({ v: 1, rv: 3, start: 'k', iat: Date.now() }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    for (const bad of [
      `${forged}.${sig}`,
      `${body}.${sig.slice(0, -2)}AA`,
      'garbage',
      `${body}`,
      '!!.!!',
      '',
    ]) {
      const err = await c.decode(bad).catch((e) => e);
      expect(isPagerError(err, 'InvalidContinue'), bad).toBe(true);
      expect(err.message).toMatch(/^invalid continue token: /);
    }
  });

  it('rejects a token signed by another server key', async () => {
    const a = createContinueCodec();
    const b = createContinueCodec();
    const t = await a.encode({ revision: 1, startKey: 'k' });
    await expect(b.decode(t)).rejects.toMatchObject({ code: 'InvalidContinue' });
    const shared = new Uint8Array(32).fill(7);
    const s1 = createContinueCodec({ key: shared });
    const s2 = createContinueCodec({ key: shared });
    expect((await s2.decode(await s1.encode({ revision: 2, startKey: 'x' }))).revision).toBe(2);
  });

  it('expires after the TTL with upstream message and a fresh inconsistent token', async () => {
    let now = 0;
    const c = createContinueCodec({ ttlMs: 5 * 60_000, now: () => now });
    const t = await c.encode({ revision: 9, startKey: 'k2' });
    now = 5 * 60_000;
    expect((await c.decode(t)).revision).toBe(9);
    now = 5 * 60_000 + 1;
    const err = await c.decode(t).catch((e) => e);
    expect(isPagerError(err, 'Expired')).toBe(true);
    expect(err.message).toBe(inconsistentContinueMessage);
    const fresh = await c.decode(err.continue);
    expect(fresh).toEqual({ revision: undefined, startKey: 'k2', issuedAt: now });
  });
});

describe('buildListMeta', () => {
  const c = createContinueCodec();
  it('sets continue and remainingItemCount on a middle page', async () => {
    const m = await buildListMeta(c, { revision: 5, nextKey: 'b\x00', remaining: 3, filtered: false });
    expect(m.resourceVersion).toBe('5');
    expect(m.remainingItemCount).toBe(3);
    expect(await c.decode(m.continue as string)).toMatchObject({ revision: 5, startKey: 'b\x00' });
  });
  it('omits remainingItemCount with selectors and on the last page', async () => {
    const f = await buildListMeta(c, { revision: 5, nextKey: 'b\x00', remaining: 3, filtered: true });
    expect(f.remainingItemCount).toBeUndefined();
    expect(f.continue).toBeDefined();
    const last = await buildListMeta(c, { revision: 5, nextKey: undefined, remaining: 0, filtered: false });
    expect(last).toEqual({ resourceVersion: '5' });
  });
});
