import { describe, expect, it } from 'vitest';
import { defaultBookmarkObject, sharedBookmarks } from './bookmarks.js';

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
