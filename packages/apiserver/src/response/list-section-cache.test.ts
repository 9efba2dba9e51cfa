import { type Codec, jsonCodec, type ListSection } from '@orchard/codecs';
import { createCborCodec } from '@orchard/codecs/cbor';
import { describe, expect, it } from 'vitest';
import { ListSectionCache } from './list-section-cache.js';

const objects = (n: number, tag = 'o') =>
  Array.from({ length: n }, (_, i) => Object.freeze({ name: `${tag}${i}` }));
const section = (length: number): ListSection => ({ count: 1, chunks: [new Uint8Array(length)], length });
const limits = { maxEntries: 4, maxBytes: 1000, minItems: 2, maxItems: 100 };

/** Looks `items` up for `request` and keeps a section of `length` bytes when the cache asks for one. */
function read(
  cache: ListSectionCache,
  items: readonly object[],
  { request = '/list', length = 10, codec = jsonCodec as Codec } = {},
) {
  const found = cache.lookup(codec, request, items);
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

  it('a changed, added, removed or reordered object replaces the request’s entry; so does another codec', () => {
    const cache = new ListSectionCache(limits);
    const items = objects(5);
    read(cache, items);
    read(cache, items);
    const changed = [...items];
    changed[2] = Object.freeze({ name: 'o2' }); // equal content, another revision's object
    for (const other of [
      changed,
      items.slice(0, 4),
      [...items, ...objects(1, 'x')],
      [items[1], items[0], ...items.slice(2)] as object[],
    ]) {
      read(cache, items);
      read(cache, items);
      expect(read(cache, items)).toBe('kept');
      expect(read(cache, other)).toBe('new');
      expect(cache.sections).toBe(0); // the request's kept section went with its old items
      expect(read(cache, items)).toBe('new');
    }
    read(cache, items);
    expect(read(cache, items, { codec: createCborCodec() })).toBe('new');
    expect(read(cache, items, { codec: createCborCodec() })).toBe('new'); // another codec object
  });

  it('each request has its own entry: the same objects by another URL are a first sighting', () => {
    const cache = new ListSectionCache(limits);
    const items = objects(5);
    read(cache, items, { request: '/a' });
    expect(read(cache, items, { request: '/b' })).toBe('new');
    expect(read(cache, items, { request: '/a' })).toBe('again');
    expect(read(cache, items, { request: '/b' })).toBe('again');
  });

  it('lists below minItems or above maxItems are never kept', () => {
    const cache = new ListSectionCache({ ...limits, minItems: 3, maxItems: 10 });
    for (const items of [objects(2), objects(11)])
      for (let i = 0; i < 3; i++) expect(read(cache, items)).toBe('new');
    expect(cache.sections).toBe(0);
    expect(cache.items).toBe(0);
  });

  it('holds at most maxEntries requests, maxBytes and maxItems, dropping the least recently used', () => {
    const cache = new ListSectionCache(limits);
    const lists = Array.from({ length: 6 }, (_, i) => objects(3, `l${i}`));
    lists.slice(0, 4).forEach((l, i) => {
      read(cache, l, { request: `/${i}`, length: 200 });
      read(cache, l, { request: `/${i}`, length: 200 });
    });
    expect(cache.sections).toBe(4);
    expect(read(cache, lists[0] as object[], { request: '/0' })).toBe('kept'); // now the most recent
    read(cache, lists[4] as object[], { request: '/4' }); // a fifth request pushes out /1
    expect(read(cache, lists[1] as object[], { request: '/1' })).toBe('new');
    expect(cache.bytes).toBeLessThanOrEqual(limits.maxBytes);
    const big = objects(3, 'big');
    read(cache, big, { request: '/big', length: 240 });
    read(cache, big, { request: '/big', length: 240 });
    expect(cache.bytes).toBeLessThanOrEqual(limits.maxBytes);
    expect(read(cache, big, { request: '/big' })).toBe('kept');
    // Items: 40 requests of 3 items would hold 120 references; the cap is 100 (and 4 entries).
    const capped = new ListSectionCache({ ...limits, maxEntries: 100 });
    for (let i = 0; i < 40; i++) read(capped, objects(3, `c${i}`), { request: `/c${i}` });
    expect(capped.items).toBeLessThanOrEqual(100);
  });

  it('does not keep a section larger than a quarter of maxBytes', () => {
    const cache = new ListSectionCache(limits);
    const items = objects(3);
    read(cache, items, { length: 251 });
    read(cache, items, { length: 251 });
    expect(read(cache, items, { length: 251 })).toBe('again');
    expect(cache.bytes).toBe(0);
  });
});
