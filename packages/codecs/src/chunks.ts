/**
 * A body as a sequence of chunks, written in order (their concatenation is the body). A joined list
 * is sent this way rather than copied into one buffer: a fresh allocation of a large list body (650
 * KB for 1,000 ConfigMaps) cost more than the rest of the request (the pages of a buffer that size
 * are new to the process each time and fault in one by one), while small chunks reuse freed memory.
 */
export type ByteChunks = readonly Uint8Array[];

/** Chunks are up to this size; a part at least this large is passed through as it is, uncopied. */
const chunkBytes = 16 * 1024;

/**
 * Packs `parts` (in order) into chunks of up to 16 KiB: runs of small parts are copied together, a
 * large part is kept as its own chunk without a copy. The parts must not change afterwards (the
 * chunks may be the parts themselves).
 */
export function packChunks(parts: readonly Uint8Array[]): ByteChunks {
  const chunks: Uint8Array[] = [];
  let run: Uint8Array[] = [];
  let runBytes = 0;
  const flush = (): void => {
    if (run.length === 1) chunks.push(run[0] as Uint8Array);
    else if (run.length > 1) {
      const out = new Uint8Array(runBytes);
      let at = 0;
      for (const part of run) {
        out.set(part, at);
        at += part.length;
      }
      chunks.push(out);
    }
    run = [];
    runBytes = 0;
  };
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length >= chunkBytes) {
      flush();
      chunks.push(part);
      continue;
    }
    if (runBytes + part.length > chunkBytes) flush();
    run.push(part);
    runBytes += part.length;
  }
  flush();
  return chunks;
}

/** The total length of `chunks`. */
export function chunksLength(chunks: ByteChunks): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

/** One buffer holding `chunks` (for a consumer that needs contiguous bytes, e.g. gzip). */
export function joinChunks(chunks: ByteChunks): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(chunksLength(chunks));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
