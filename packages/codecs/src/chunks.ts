import type { ListSection } from './codec.js';

/**
 * A body as a sequence of chunks, written in order (their concatenation is the body). A joined list
 * is sent this way rather than copied into one buffer: a fresh allocation of a large list body (650
 * KB for 1,000 ConfigMaps) cost more than the rest of the request (the pages of a buffer that size
 * are new to the process each time and fault in one by one).
 */
export type ByteChunks = readonly Uint8Array[];

/** Chunks are up to this size; a part at least this large is passed through as it is, uncopied. */
const chunkBytes = 16 * 1024;

/**
 * Reusable 16 KiB buffers for `packChunks`: a LIST answer copies its small parts into these instead
 * of into new buffers (allocating and collecting ~40 fresh buffers per 650 KB list cost ~4× the
 * copy). A buffer goes back with `release` only once nothing reads it any more (the response has
 * been handed to the socket); one never released is simply collected. Keeps at most `maxFree`.
 */
export class ChunkPool {
  readonly #free: Uint8Array[] = [];
  /** The buffers taken and not yet released, by their memory (a chunk may be a view of one). */
  readonly #lent = new WeakMap<ArrayBufferLike, Uint8Array>();
  readonly #maxFree: number;

  constructor(maxFree = 256) {
    this.#maxFree = maxFree;
  }

  /** A 16 KiB buffer: a released one, else a new one. */
  take(): Uint8Array {
    const buffer = this.#free.pop() ?? new Uint8Array(chunkBytes);
    this.#lent.set(buffer.buffer, buffer);
    return buffer;
  }

  /** Gives back the pool's buffers among `chunks` (views of them, each once); others are ignored. */
  release(chunks: ByteChunks): void {
    for (const c of chunks) {
      const whole = this.#lent.get(c.buffer);
      if (!whole) continue;
      this.#lent.delete(c.buffer);
      if (this.#free.length < this.#maxFree) this.#free.push(whole);
    }
  }

  /** How many released buffers wait for reuse. */
  get freeCount(): number {
    return this.#free.length;
  }
}

/**
 * Packs `parts` (in order) into chunks of up to 16 KiB: runs of small parts are copied together
 * (into `pool`'s buffers when given), a large part is kept as its own chunk without a copy. The parts
 * must not change afterwards (the chunks may be the parts themselves).
 */
export function packChunks(parts: readonly Uint8Array[], pool?: ChunkPool): ByteChunks {
  const chunks: Uint8Array[] = [];
  let run: Uint8Array[] = [];
  let runBytes = 0;
  const flush = (): void => {
    if (run.length === 1) chunks.push(run[0] as Uint8Array);
    else if (run.length > 1) {
      const out = pool ? pool.take().subarray(0, runBytes) : new Uint8Array(runBytes);
      let at = 0;
      for (const part of run) {
        // A byte or two (a comma, a length) is cheaper copied by hand than through `set`.
        if (part.length < 8) for (let i = 0; i < part.length; i++) out[at + i] = part[i] as number;
        else out.set(part, at);
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

/** A list's items section from its parts: packed as `packChunks` does, with its length. */
export function packSection(parts: readonly Uint8Array[], count: number, pool?: ChunkPool): ListSection {
  const chunks = packChunks(parts, pool);
  return { count, chunks, length: chunksLength(chunks) };
}

/** The total length of `chunks`. */
export function chunksLength(chunks: ByteChunks): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

/** Whether a body is chunks rather than one buffer. */
export function isByteChunks(body: Uint8Array | ByteChunks): body is ByteChunks {
  return Array.isArray(body);
}

/** The length in bytes of a body given as one buffer or as chunks. */
export function bodyLength(body: Uint8Array | ByteChunks): number {
  return isByteChunks(body) ? chunksLength(body) : body.byteLength;
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
