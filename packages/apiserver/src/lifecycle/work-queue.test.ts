import { describe, expect, it } from 'vitest';
import { createWorkQueue } from './work-queue.js';

const noop = { onError: () => {}, onOverflow: () => {} };

describe('createWorkQueue', () => {
  it('de-duplicates queued items and never runs one item twice at once', async () => {
    const runs: string[] = [];
    let concurrent = 0;
    let maxConcurrentSame = 0;
    const active = new Map<string, number>();
    const q = createWorkQueue(async (item) => {
      concurrent++;
      active.set(item, (active.get(item) ?? 0) + 1);
      maxConcurrentSame = Math.max(maxConcurrentSame, active.get(item) ?? 0);
      runs.push(item);
      await new Promise((r) => setTimeout(r, 5));
      if (item === 'a' && runs.filter((x) => x === 'a').length === 1) q.add('a'); // re-queued while running
      active.set(item, (active.get(item) ?? 1) - 1);
      concurrent--;
    }, noop);
    q.add('a');
    q.add('a');
    q.add('b');
    await q.idle();
    expect(runs.filter((x) => x === 'a')).toHaveLength(2);
    expect(runs.filter((x) => x === 'b')).toHaveLength(1);
    expect(maxConcurrentSame).toBe(1);
    expect(concurrent).toBe(0);
    await q.stop();
  });

  it('retries failures with backoff, then drops the item and reports it', async () => {
    const errors: [string, boolean][] = [];
    let n = 0;
    const q = createWorkQueue(
      async () => {
        n++;
        throw new Error('boom');
      },
      { onError: (item, _e, dropped) => errors.push([item, dropped]), onOverflow: () => {} },
      { retryDelayMs: 1, maxRetries: 2 },
    );
    q.add('x');
    await q.idle();
    expect(n).toBe(3);
    expect(errors).toEqual([
      ['x', false],
      ['x', false],
      ['x', true],
    ]);
    await q.stop();
  });

  it('is bounded: beyond maxQueued items are dropped and onOverflow is called', async () => {
    let overflows = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const q = createWorkQueue(
      () => gate,
      { onError: () => {}, onOverflow: () => overflows++ },
      { workers: 1, maxQueued: 3 },
    );
    for (let i = 0; i < 10; i++) q.add(`i${i}`);
    expect(q.size()).toBeLessThanOrEqual(4);
    expect(overflows).toBeGreaterThan(0);
    release();
    await q.idle();
    await q.stop();
  });
});
