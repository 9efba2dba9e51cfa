import { describe, expect, it } from 'vitest';
import { defaultBookmarkObject, inSlices, sharedBookmarks } from './bookmarks.js';

describe('sharedBookmarks', () => {
  it('hands every watcher bookmarked at one version the same object, a new one at the next', () => {
    const make = sharedBookmarks(defaultBookmarkObject('orch.io'));
    const a = make('5', false);
    expect(make('5', false)).toBe(a);
    expect(a).toEqual({ metadata: { resourceVersion: '5' } });
    const b = make('6', false);
    expect(b).not.toBe(a);
    expect(b.metadata?.resourceVersion).toBe('6');
  });

  it('never shares the initial-events-end bookmark (it carries the annotation)', () => {
    const make = sharedBookmarks(defaultBookmarkObject('orch.io'));
    const plain = make('5', false);
    const end = make('5', true);
    expect(end).not.toBe(plain);
    expect(end.metadata?.annotations).toEqual({ 'orch.io/initial-events-end': 'true' });
    expect(make('5', false)).toBe(plain);
  });
});

describe('inSlices', () => {
  it('runs the first slice now and the others one per turn, in order', async () => {
    const seen: number[][] = [];
    inSlices([1, 2, 3, 4, 5], 2, (s) => seen.push([...s]));
    expect(seen).toEqual([[1, 2]]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([
      [1, 2],
      [3, 4],
    ]);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
    inSlices([], 2, () => seen.push([]));
    expect(seen).toHaveLength(3);
  });
});
