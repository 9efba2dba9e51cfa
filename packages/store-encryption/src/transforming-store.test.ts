import { randomBytes } from 'node:crypto';
import { createMemoryStore, type Store } from '@orchard/store';
import { runStoreConformance } from '@orchard/store/testing';
import { describe, expect, it } from 'vitest';
import { aesGcmTransformer, identityTransformer } from './providers.js';
import { createTransformingStore } from './transforming-store.js';
import { createPrefixTransformers, type ValueTransformer } from './value-transformer.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const p = (s: string) => enc.encode(s);
const withKey = (name: string, t: ValueTransformer) =>
  createPrefixTransformers(
    [{ prefix: p(`k8s:enc:aesgcm:v1:${name}:`), transformer: t }],
    'no matching prefix found',
  );

// The whole Store contract holds through encryption (revisions, CAS, watch order, compaction).
const everyKey = withKey('k1', aesGcmTransformer(randomBytes(32)));
runStoreConformance(
  'transforming(memory, aesgcm)',
  () => createTransformingStore(createMemoryStore(), () => everyKey),
  {
    durability: { durable: false },
    createAll: true,
    manyKeys: 5_000,
  },
);

describe('createTransformingStore', () => {
  const k1 = aesGcmTransformer(randomBytes(32));
  const k2 = aesGcmTransformer(randomBytes(32));
  const v1 = withKey('k1', k1);
  const rotated = createPrefixTransformers(
    [
      { prefix: p('k8s:enc:aesgcm:v1:k2:'), transformer: k2 },
      { prefix: p('k8s:enc:aesgcm:v1:k1:'), transformer: k1 },
    ],
    'no matching prefix found',
  );
  const onlyK2 = withKey('k2', k2);

  async function raw(inner: Store, key: string) {
    return dec.decode((await inner.get(key)).kv?.value);
  }

  it('stores ciphertext, hands plaintext back from every read path', async () => {
    const inner = createMemoryStore();
    const st = createTransformingStore(inner, (k) => (k.startsWith('/core/secrets/') ? v1 : undefined));
    const created = await st.create('/core/secrets/a/s', p('top secret'));
    expect(dec.decode(created.value)).toBe('top secret');
    await st.create('/core/configmaps/a/c', p('plain'));
    expect(await raw(inner, '/core/secrets/a/s')).toMatch(/^k8s:enc:aesgcm:v1:k1:/);
    expect(await raw(inner, '/core/secrets/a/s')).not.toContain('top secret');
    expect(await raw(inner, '/core/configmaps/a/c')).toBe('plain');
    expect(dec.decode((await st.get('/core/secrets/a/s')).kv?.value)).toBe('top secret');
    expect((await st.list('/core/')).kvs.map((kv) => dec.decode(kv.value))).toEqual(['plain', 'top secret']);
    const updated = await st.update('/core/secrets/a/s', (cur) => p(`${dec.decode(cur.value)}!`));
    expect(dec.decode(updated.value)).toBe('top secret!');
    const events: string[] = [];
    const ac = new AbortController();
    for await (const ev of st.watch('/core/secrets/', { fromRevision: 0, signal: ac.signal })) {
      events.push(`${ev.type}:${dec.decode(ev.kv.value)}:${ev.prevKv ? dec.decode(ev.prevKv.value) : ''}`);
      if (events.length === 3) ac.abort();
      if (events.length === 2)
        await st.delete('/core/secrets/a/s', {
          check: (cur) => expect(dec.decode(cur.value)).toBe('top secret!'),
        });
    }
    expect(events).toEqual([
      'put:top secret:',
      'put:top secret!:top secret',
      'delete:top secret!:top secret!',
    ]);
  });

  it('rotation: an old-key value reads stale under the new order; a write re-encrypts with the first key', async () => {
    const inner = createMemoryStore();
    await createTransformingStore(inner, () => v1).create('/s', p('x'));
    const st = createTransformingStore(inner, () => rotated);
    const read = (await st.get('/s')).kv;
    expect(read?.stale).toBe(true);
    expect(dec.decode(read?.value)).toBe('x');
    await st.update('/s', (cur) => cur.value);
    expect(await raw(inner, '/s')).toMatch(/^k8s:enc:aesgcm:v1:k2:/);
    expect((await st.get('/s')).kv?.stale).toBeUndefined();
  });

  it('identity first still reads encrypted values (stale), and writes plaintext', async () => {
    const inner = createMemoryStore();
    await createTransformingStore(inner, () => v1).create('/s', p('x'));
    const decrypting = createPrefixTransformers(
      [
        { prefix: new Uint8Array(0), transformer: identityTransformer() },
        { prefix: p('k8s:enc:aesgcm:v1:k1:'), transformer: k1 },
      ],
      'no matching prefix found',
    );
    const st = createTransformingStore(inner, () => decrypting);
    expect((await st.get('/s')).kv).toMatchObject({ stale: true });
    await st.update('/s', (cur) => cur.value);
    expect(await raw(inner, '/s')).toBe('x');
  });

  it('a value no provider decrypts comes up marked, never throws, and can still be deleted', async () => {
    const inner = createMemoryStore();
    await createTransformingStore(inner, () => v1).create('/s/bad', p('x'));
    await createTransformingStore(inner, () => v1).create('/s/good', p('y'));
    const st = createTransformingStore(inner, (k) => (k === '/s/good' ? v1 : onlyK2));
    const bad = (await st.get('/s/bad')).kv;
    expect(bad?.transformError).toBe('no matching prefix found');
    expect(dec.decode(bad?.value)).toMatch(/^k8s:enc:aesgcm:v1:k1:/);
    const list = await st.list('/s/');
    expect(list.kvs.map((kv) => kv.transformError)).toEqual(['no matching prefix found', undefined]);
    const gone = await st.delete('/s/bad');
    expect(gone.transformError).toBe('no matching prefix found');
    expect((await inner.get('/s/bad')).kv).toBeUndefined();
  });
});
