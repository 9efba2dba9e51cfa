import { describe, expect, it } from 'vitest';
import { createByteArena } from './encoded-default.js';

describe('createByteArena', () => {
  it('hands out views that never overlap, across chunks, and large sizes on their own', () => {
    const alloc = createByteArena();
    const views = [100, 5000, 16_000, 30_000, 7, 0, 40_000, 1].map((n, i) => {
      const v = alloc(n);
      expect(v.length).toBe(n);
      v.fill(i + 1);
      return v;
    });
    // Each view still holds only its own fill: no later allocation wrote over an earlier one.
    views.forEach((v, i) => {
      expect(v.every((b) => b === i + 1)).toBe(true);
    });
    // 30,000 B is above a quarter chunk: its own buffer, not a view into a shared one.
    expect(views[3]!.byteOffset).toBe(0);
    expect(views[3]!.buffer.byteLength).toBe(30_000);
    // Small ones share a chunk.
    expect(views[0]!.buffer).toBe(views[1]!.buffer);
  });
});
