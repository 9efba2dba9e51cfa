import type { ServerResponse } from 'node:http';
import { ChunkPool, joinChunks, packChunks } from '@orchard/codecs';
import { describe, expect, it } from 'vitest';
import { send } from './write.js';

/** A response that records what is written and holds end()'s callback until `finish()`. */
function recordingResponse() {
  const written: Uint8Array[] = [];
  const headers: Record<string, unknown> = {};
  let onFinish: (() => void) | undefined;
  const res = {
    headersSent: false,
    writeHead(_code: number, h: Record<string, unknown>) {
      Object.assign(headers, h);
      return res;
    },
    cork() {},
    write(chunk: Uint8Array) {
      written.push(Uint8Array.from(chunk)); // a copy: what the socket took at this point
      return true;
    },
    end(cb?: () => void) {
      onFinish = cb;
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, written, headers, finish: () => onFinish?.() };
}

describe('send() of chunks', () => {
  it('writes every chunk in order with the total Content-Length', () => {
    const parts = Array.from({ length: 500 }, (_, i) => Uint8Array.from([i % 250, 1, 2, 3, 4, 5, 6, 7, 8]));
    const chunks = packChunks(parts);
    const r = recordingResponse();
    send(r.res, 200, 'application/json', chunks);
    expect(r.headers['Content-Length']).toBe(String(500 * 9));
    expect(Buffer.from(joinChunks(r.written)).equals(Buffer.concat(parts))).toBe(true);
  });

  it('gives pooled buffers back only when the response has finished, not when it was written', () => {
    const pool = new ChunkPool();
    const parts = Array.from({ length: 4000 }, () => Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const chunks = packChunks(parts, pool);
    const r = recordingResponse();
    send(r.res, 200, 'application/json', chunks, {}, false, pool);
    expect(pool.freeCount).toBe(0); // still the socket's
    r.finish();
    expect(pool.freeCount).toBe(chunks.length);
  });
});
