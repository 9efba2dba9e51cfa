import { type Codec, jsonCodec, type ListSection } from '@orchard/codecs';
import { createCborCodec } from '@orchard/codecs/cbor';
import { describe, expect, it } from 'vitest';
import { ListSectionCache } from './list-section-cache.js';

const objects = (n: number, tag = 'o') =>
  Array.from({ length: n }, (_, i) => Object.freeze({ name: `${tag}${i}` }));
const section = (length: number): ListSection => ({ count: 1, chunks: [new Uint8Array(length)], length });
const limits = { maxEntries: 4, maxBytes: 1000, minItems: 2 };

/** Looks `items` up and keeps a section of `length` bytes when the cache asks for one. */
function read(cache: ListSectionCache, items: readonly object[], length = 10, codec: Codec = jsonCodec) {
  const found = cache.lookup(codec, items);
  if (found.kind === 'again') cache.keep(found.entry, section(length));
  return found.kind;
}

describe('ListSectionCache', () => {
  it('keeps a section on the second sighting of the same objects and reuses it from the third', () => {
    const cache = new ListSectionCache(limits);
    const items = objects(5);
    expect(read(cache, items)).toBe('new');
    expect(read(cache, [...items])).toBe('again');
    expect(read(cache, [...items])).toBe('kept');
    expect(cache.sections).toBe(1);
    expect(cache.bytes).toBe(10);
  });

  it('a changed, added, removed or reordered object is another list; so is another codec', () => {
    const cache = new ListSectionCache({ ...limits, maxEntries: 16 });
    const items = objects(5);
    read(cache, items);
    read(cache, items);
    const changed = [...items];
    changed[2] = Object.freeze({ name: 'o2' }); // equal content, another revision's object
    expect(read(cache, changed)).toBe('new');
    expect(read(cache, items.slice(0, 4))).toBe('new');
    expect(read(cache, [...items, ...objects(1, 'x')])).toBe('new');
    expect(read(cache, [items[1], items[0], ...items.slice(2)] as object[])).toBe('new');
    expect(read(cache, items, 10, createCborCodec())).toBe('new');
    expect(read(cache, items)).toBe('kept');
  });

  it('lists below minItems are never kept', () => {
    const cache = new ListSectionCache({ ...limits, minItems: 3 });
    const items = objects(2);
    for (let i = 0; i < 3; i++) expect(read(cache, items)).toBe('new');
    expect(cache.sections).toBe(0);
  });

  it('holds at most maxEntries lists and maxBytes, dropping the least recently used', () => {
    const cache = new ListSectionCache(limits);
    const lists = Array.from({ length: 6 }, (_, i) => objects(3, `l${i}`));
    for (const l of lists.slice(0, 4)) {
      read(cache, l, 200);
      read(cache, l, 200);
    }
    expect(cache.sections).toBe(4);
    expect(read(cache, lists[0] as object[])).toBe('kept'); // now the most recent
    read(cache, lists[4] as object[], 200); // a sighting: pushes out the least recent (lists[1])
    expect(read(cache, lists[1] as object[])).toBe('new');
    expect(cache.bytes).toBeLessThanOrEqual(limits.maxBytes);
    // Bytes: two sections of 240 would pass 1000 with those kept; older ones go.
    const big = objects(3, 'big');
    read(cache, big, 240);
    read(cache, big, 240);
    expect(cache.bytes).toBeLessThanOrEqual(limits.maxBytes);
    expect(read(cache, big)).toBe('kept');
  });

  it('does not keep a section larger than a quarter of maxBytes', () => {
    const cache = new ListSectionCache(limits);
    const items = objects(3);
    read(cache, items, 251);
    read(cache, items, 251);
    expect(read(cache, items, 251)).toBe('again');
    expect(cache.bytes).toBe(0);
  });
});
