import { describe, expect, it } from 'vitest';
import { bodyLength, ChunkPool, chunksLength, isByteChunks, joinChunks, packChunks } from './chunks.js';

const bytes = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill);

describe('packChunks', () => {
  it('keeps the bytes and their order, in chunks of at most 16 KiB', () => {
    const parts = Array.from({ length: 2000 }, (_, i) => bytes(1 + (i % 97), i % 251));
    const chunks = packChunks(parts);
    expect(Buffer.from(joinChunks(chunks)).equals(Buffer.concat(parts))).toBe(true);
    expect(chunksLength(chunks)).toBe(Buffer.concat(parts).length);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(16 * 1024);
  });

  it('passes a part of 16 KiB or more through uncopied, between the runs around it', () => {
    const big = bytes(40_000, 7);
    const chunks = packChunks([bytes(3, 1), bytes(4, 2), big, bytes(5, 3)]);
    expect(chunks).toHaveLength(3);
    expect(chunks[1]).toBe(big);
    expect(Buffer.from(chunks[0] as Uint8Array)).toEqual(Buffer.from([1, 1, 1, 2, 2, 2, 2]));
  });

  it('gives no chunks for no bytes, and one buffer of nothing when joined', () => {
    expect(packChunks([])).toEqual([]);
    expect(packChunks([new Uint8Array(0), new Uint8Array(0)])).toEqual([]);
    expect(joinChunks([]).length).toBe(0);
  });

  it('a lone small part is its own chunk, not a copy', () => {
    const one = bytes(10, 9);
    expect(packChunks([one])[0]).toBe(one);
  });
});

describe('ChunkPool', () => {
  it('packs runs into its buffers and reuses them once released, each once', () => {
    const pool = new ChunkPool(4);
    const parts = Array.from({ length: 300 }, (_, i) => bytes(100, i % 200));
    const first = packChunks(parts, pool);
    expect(Buffer.from(joinChunks(first)).equals(Buffer.concat(parts))).toBe(true);
    expect(pool.freeCount).toBe(0);
    pool.release(first);
    pool.release(first); // twice: still each buffer once
    expect(pool.freeCount).toBe(2);
    const reused = pool.take();
    expect(first.some((c) => c.buffer === reused.buffer)).toBe(true);
  });

  it('ignores chunks it did not lend and keeps at most maxFree', () => {
    const pool = new ChunkPool(1);
    pool.release([bytes(10, 1)]);
    expect(pool.freeCount).toBe(0);
    const a = pool.take();
    const b = pool.take();
    pool.release([a, b]);
    expect(pool.freeCount).toBe(1);
  });
});

describe('bodyLength and isByteChunks', () => {
  it('tell one buffer from chunks and measure either', () => {
    const one = bytes(7, 1);
    const chunks = [bytes(3, 1), bytes(4, 2)];
    expect(isByteChunks(one)).toBe(false);
    expect(isByteChunks(chunks)).toBe(true);
    expect(bodyLength(one)).toBe(7);
    expect(bodyLength(chunks)).toBe(7);
    expect(bodyLength([])).toBe(0);
  });
});
