import { gzipSync } from 'node:zlib';
import { type ByteChunks, bodyLength, isByteChunks, joinChunks } from '@orchard/codecs';
import type { RequestContext } from '../context.js';
import { featureEnabled } from '../feature-gates.js';

/**
 * Responses smaller than this are sent uncompressed even when the client accepts gzip: upstream's
 * `defaultGzipThresholdBytes` (128 KiB), below which compressing costs more than it saves.
 */
export const gzipThresholdBytes = 128 * 1024;

/** Whether `Accept-Encoding` admits gzip (a `gzip` or `*` coding without `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * gzip for get and list responses (spec doc 1 §4.3): with `Accept-Encoding: gzip`, the gate
 * `APIResponseCompression` on (beta, default on) and a body of at least `gzipThresholdBytes`.
 * Returns the bytes to send and the headers to add.
 */
export function maybeGzip(
  ctx: RequestContext,
  body: Uint8Array | ByteChunks,
): { body: Uint8Array | ByteChunks; headers: Record<string, string> } {
  if (
    ctx.req.method !== 'GET' ||
    bodyLength(body) < gzipThresholdBytes ||
    !acceptsGzip(ctx.req.headers['accept-encoding']) ||
    !featureEnabled(ctx.server.options.featureGates, 'APIResponseCompression')
  )
    return { body, headers: {} };
  const whole = isByteChunks(body) ? joinChunks(body) : body;
  return { body: gzipSync(whole), headers: { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } };
}
