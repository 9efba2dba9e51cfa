import { describe, expect, it } from 'vitest';
import { summarize } from './controller.js';
import { run } from './main.js';

describe('examples/controller-informer', () => {
  it('summarize() derives the summary from the cached ConfigMaps, skipping itself', () => {
    expect(
      summarize(
        [
          { metadata: { name: 'b' }, data: { x: '1', y: '2' } },
          { metadata: { name: 'summary' }, data: { count: '9' } },
          { metadata: { name: 'a' } },
        ],
        'summary',
      ),
    ).toEqual({ count: '2', names: 'a,b', keys: '2' });
  });

  it('keeps the summary ConfigMap in step, resuming watches and relisting after a 410', async () => {
    const r = await run();
    expect(r.steps.map((s) => s.data)).toEqual([
      { count: '1', names: 'app', keys: '1' },
      { count: '2', names: 'app,db', keys: '3' },
      { count: '2', names: 'app,db', keys: '4' },
      { count: '3', names: 'app,cache,db', keys: '4' },
      { count: '2', names: 'app,cache', keys: '2' },
    ]);
    // One list at start and one after the forced 410; every other watch resumed without a list.
    expect(r.stats.lists).toBe(2);
    expect(r.stats.relistsAfterGone).toBe(1);
    expect(r.stats.watches).toBeGreaterThanOrEqual(3);
    expect(r.errors).toBe(0);
  });
});
