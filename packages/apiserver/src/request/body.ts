import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '@orchard/meta';
import { hasBrand } from '@orchard/meta/internal';
import { noteRequestBody } from '../audit/record.js';

/** The client closed the connection before its request body arrived: nobody is left to answer. */
export class ClientGoneError extends Error {
  readonly orchardClientGone = true as const;
  constructor() {
    super('request aborted by the client');
    this.name = 'ClientGoneError';
  }
}

export function isClientGone(e: unknown): e is ClientGoneError {
  return hasBrand(e, 'orchardClientGone');
}

/**
 * Reads a request body up to `limit` bytes. A declared Content-Length over the limit is refused at
 * once with 413 RequestEntityTooLarge, before any byte is read, and the connection is closed after
 * the answer (so a client announcing 10 GiB is not read). A body without a length that grows past
 * the limit gets the same 413; the rest is drained and discarded so the client sees the Status
 * rather than a reset; memory stays bounded by the limit.
 */
export function readBody(req: IncomingMessage, limit: number, res?: ServerResponse): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    if (res) {
      res.shouldKeepAlive = false;
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.socket.destroy());
    }
    return Promise.reject(errors.requestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    let tooLarge = false;
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
        const body = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
        noteRequestBody(req, body);
        resolve(body);
      }
    });
    req.on('error', reject);
    req.on('aborted', () => reject(new ClientGoneError()));
  });
}
