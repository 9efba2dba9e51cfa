import { describe, expect, it } from 'vitest';
import { KeyIndex } from './key-index.js';

/** A deterministic pseudo-random sequence (no Math.random in tests). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x;
  };
}

describe('KeyIndex', () => {
  it('matches a sorted array under random inserts and deletes across chunk splits', () => {
    const index = new KeyIndex();
    const model = new Set<string>();
    const rnd = lcg(7);
    for (let n = 0; n < 20_000; n++) {
      const key = `/k/${rnd() % 5000}`;
      if (rnd() % 3 === 0) {
        index.delete(key);
        model.delete(key);
      } else {
        index.add(key);
        model.add(key);
      }
    }
    const sorted = [...model].sort();
    expect([...index]).toEqual(sorted);
    expect(index.length).toBe(sorted.length);
    for (const probe of ['/k/', '/k/1', '/k/2500', '/k/9', '/l', '']) {
      const want = sorted.findIndex((k) => k >= probe);
      expect(index.lowerBound(probe)).toBe(want === -1 ? sorted.length : want);
    }
    expect([...index.from(100)].slice(0, 3)).toEqual(sorted.slice(100, 103));
    // walk: the same keys from every start (across chunk boundaries), and it stops when told.
    for (const start of [0, 1, 511, 512, 1023, 1024, sorted.length - 1, sorted.length, sorted.length + 5]) {
      const seen: string[] = [];
      index.walk(start, (k) => {
        seen.push(k);
        return true;
      });
      expect(seen).toEqual(sorted.slice(start));
    }
    const firstThree: string[] = [];
    index.walk(700, (k) => firstThree.push(k) < 3);
    expect(firstThree).toEqual(sorted.slice(700, 703));
    expect(index.has(sorted[0] as string)).toBe(true);
    expect(index.has('/nope')).toBe(false);
  });

  it('appends keys that come in order, splitting the last chunk, and still inserts before them', () => {
    const index = new KeyIndex();
    const keys = Array.from({ length: 2_500 }, (_, i) => `/k/${String(i).padStart(5, '0')}`);
    for (const k of keys) index.add(k);
    index.add(keys[2_499] as string); // present: no-op
    index.add('/k/00100x'); // between two appended keys
    index.add('/a'); // before all
    const want = ['/a', ...keys.slice(0, 101), '/k/00100x', ...keys.slice(101)];
    expect([...index]).toEqual(want);
    expect(index.length).toBe(want.length);
    expect(index.lowerBound('/k/02000')).toBe(want.indexOf('/k/02000'));
    for (const start of [0, 1023, 1024, 1025, 2047, 2048]) {
      const seen: string[] = [];
      index.walk(start, (k) => seen.push(k) > 0);
      expect(seen).toEqual(want.slice(start));
    }
  });

  it('builds from 300k sorted keys and removes them all', () => {
    const keys = Array.from({ length: 300_000 }, (_, i) => `/k/${String(i).padStart(6, '0')}`);
    const index = KeyIndex.fromSorted(keys);
    expect(index.length).toBe(300_000);
    expect(index.lowerBound('/k/150000')).toBe(150_000);
    for (const k of keys) index.delete(k);
    expect(index.length).toBe(0);
    expect([...index]).toEqual([]);
    expect(index.lowerBound('/k/')).toBe(0);
  });
});
