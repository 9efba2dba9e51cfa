import type { ApiObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { EventWindow } from './event-window.js';
import type { CachedChange } from './watcher.js';

const change = (revision: number, time: number): CachedChange<ApiObject> => ({
  type: 'ADDED',
  key: `/k/${revision}`,
  object: { metadata: { resourceVersion: String(revision) } },
  prevObject: undefined,
  revision,
  time,
});

function filled(limits: { windowMs: number; maxEvents: number }, n: number): EventWindow<ApiObject> {
  const w = new EventWindow<ApiObject>(limits);
  w.reset(10);
  for (let i = 1; i <= n; i++) w.push(change(10 + i, i * 100));
  return w;
}

const revisions = (w: EventWindow<ApiObject>, after: number) => {
  const out: number[] = [];
  w.forEachAfter(after, (c) => out.push(c.revision));
  return out;
};

describe('EventWindow', () => {
  it('evicts by count: the oldest revision becomes the last one dropped', () => {
    const w = filled({ windowMs: 1e9, maxEvents: 3 }, 5);
    w.evict(500);
    expect(w.size).toBe(3);
    expect(w.oldest).toBe(12);
    expect(revisions(w, 0)).toEqual([13, 14, 15]);
  });

  it('evicts by age against the given time', () => {
    const w = filled({ windowMs: 250, maxEvents: 100 }, 5);
    w.evict(500); // cutoff 250: events at 100 and 200 go
    expect(revisions(w, 0)).toEqual([13, 14, 15]);
    expect(w.oldest).toBe(12);
    w.evict(10_000);
    expect(w.size).toBe(0);
    expect(w.oldest).toBe(15);
  });

  it('walks changes after a revision oldest-first, and newest-first for undoing', () => {
    const w = filled({ windowMs: 1e9, maxEvents: 100 }, 5);
    expect(revisions(w, 12)).toEqual([13, 14, 15]);
    expect(revisions(w, 15)).toEqual([]);
    expect(revisions(w, 3)).toEqual([11, 12, 13, 14, 15]);
    const back: number[] = [];
    w.forEachAfterNewestFirst(12, (c) => back.push(c.revision));
    expect(back).toEqual([15, 14, 13]);
  });

  it('keeps serving after compacting its array (many evictions)', () => {
    const w = filled({ windowMs: 1e12, maxEvents: 10 }, 10_000);
    w.evict(0);
    expect(w.size).toBe(10);
    expect(w.oldest).toBe(10_000);
    expect(revisions(w, 10_005)).toEqual([10_006, 10_007, 10_008, 10_009, 10_010]);
    w.reset(20_000);
    expect(w.size).toBe(0);
    expect(w.oldest).toBe(20_000);
  });
});
