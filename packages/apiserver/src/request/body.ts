import type { IncomingMessage } from 'node:http';
import { errors } from '@orchard/meta';

/**
 * Reads a request body up to `limit` bytes. Over the limit it rejects with 413 RequestEntityTooLarge
 * but keeps draining (and discarding) the rest, so the client gets the Status instead of a reset
 * connection; memory stays bounded by the limit. A declared Content-Length over the limit fails
 * the same way, without buffering anything.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(errors.requestEntityTooLarge(limit));
      else {
        const buf = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        resolve(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
      }
    });
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('request aborted by the client')));
  });
}
