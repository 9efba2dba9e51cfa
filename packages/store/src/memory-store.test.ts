import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { runStoreConformance } from './testing/store-conformance.js';

runStoreConformance('memory', () => createMemoryStore());

describe('memory store specifics', () => {
  it('auto-compaction keeps history bounded', async () => {
    const st = createMemoryStore({ autoCompactRetainRevisions: 10 });
    await st.create('/k', new Uint8Array([0]));
    for (let i = 0; i < 100; i++) await st.update('/k', () => new Uint8Array([i]));
    expect(await st.compactedRevision()).toBeGreaterThan(50);
    expect((await st.get('/k')).kv?.value[0]).toBe(99);
  });

  it('ends watches on close', async () => {
    const st = createMemoryStore();
    const it = st.watch('/', { fromRevision: 0 })[Symbol.asyncIterator]();
    const next = it.next();
    await st.close();
    expect((await next).done).toBe(true);
  });
});
