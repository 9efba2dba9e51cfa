import type { ServerResponse } from 'node:http';
import {
  type ByteChunks,
  bodyLength,
  type ChunkPool,
  type Codec,
  isByteChunks,
  jsonCodec,
} from '@orchard/codecs';
import type { ApiError, Flavor } from '@orchard/meta';
import { negotiateResponse, offersFor, type ResponseEncoding, type ResponseOffer } from '../codecs.js';
import type { RequestContext } from '../context.js';
import { convertForResponse } from '../crd/conversion.js';
import { AuditedResponse } from './audited-response.js';
import { maybeGzip } from './compression.js';
import { encodeCached } from './encode-cached.js';
import { negotiateForKind } from './negotiation-cache.js';

/**
 * RFC 7234 §5.5 warning header values (`299 - "text"`), as upstream writes them: the text quoted with
 * control characters escaped, sent as UTF-8 bytes. Node writes a header string as Latin-1 and throws
 * on anything above U+00FF or on DEL, so the UTF-8 bytes go in as a binary string (an unknown field
 * named `日本` was a 500 after the object had been stored).
 */
export function formatWarning(text: string): string {
  const quoted = JSON.stringify(text).replace(/[\u007f-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code === 0x7f ? '\\x7f' : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1');
}

/**
 * Writes a complete response with a body (one buffer, a string, or chunks written in order, as a
 * joined list comes). HEAD requests get the headers only.
 */
export function send(
  res: ServerResponse,
  code: number,
  contentType: string,
  body: Uint8Array | string | ByteChunks,
  headers: Record<string, string | string[]> = {},
  head = false,
  chunkPool?: ChunkPool,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const length = String(bodyLength(bytes));
  const flat = res instanceof AuditedResponse && res.untouchedHeaders ? flatHeaders(headers) : undefined;
  if (flat) {
    flat.unshift(
      'Content-Type',
      contentType,
      'Content-Length',
      length,
      'Cache-Control',
      'no-cache, private',
      'X-Content-Type-Options',
      'nosniff',
    );
    (res as AuditedResponse).writeHeadFlat(code, flat);
  } else
    res.writeHead(code, {
      'Content-Type': contentType,
      'Content-Length': length,
      'Cache-Control': 'no-cache, private',
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    });
  if (head || !isByteChunks(bytes)) {
    res.end(head ? undefined : bytes);
    return;
  }
  // Corked, the chunks leave in one writev; end() uncorks. Their pooled buffers are reused only
  // once the whole response has been handed to the socket ('finish'); on an error they are left to
  // the collector.
  res.cork();
  for (const chunk of bytes) res.write(chunk);
  if (chunkPool) res.end(() => chunkPool.release(bytes));
  else res.end();
}

/** The headers `send` always writes (lower case): a caller's header of the same name replaces one. */
const sendHeaderNames = new Set([
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
]);

/**
 * `headers` as a flat `[name, value, …]` list (a list value as repeated names), or undefined when
 * one of them replaces a header `send` writes itself (the object form keeps that header's place).
 */
function flatHeaders(headers: Record<string, string | string[]>): string[] | undefined {
  const flat: string[] = [];
  for (const name in headers) {
    if (sendHeaderNames.has(name.toLowerCase())) return undefined;
    const value = headers[name] as string | string[];
    if (typeof value === 'string') flat.push(name, value);
    else for (const v of value) flat.push(name, v);
  }
  return flat;
}

function warningHeaders(ctx: RequestContext): Record<string, string[]> {
  return ctx.warnings.length > 0 ? { Warning: ctx.warnings.map(formatWarning) } : {};
}

/** Negotiates the encoding of an object or list response (406 when nothing in Accept fits). */
export function responseEncoding(ctx: RequestContext, streaming = false): ResponseEncoding {
  const { server, def } = ctx;
  if (def)
    return negotiateForKind(
      server.offers,
      server.flavor,
      def,
      ctx.version,
      ctx.req.headers.accept,
      streaming,
    );
  return negotiateResponse(
    ctx.req.headers.accept,
    offersFor(server.offers, server.flavor, undefined),
    streaming,
  );
}

/**
 * Writes an API object, list or Status with the negotiated codec (and conversion, e.g. Table).
 * `shape` tells a conversion what it gets. `fromCache`: the object, or the list's items, are the
 * watch cache's (never mutated), so their encoded bytes are built once and reused (serialize once).
 * Returns a promise when the value needs an asynchronous conversion (a CRD's conversion webhook):
 * await it, since a failed conversion rejects.
 */
export function writeObject(
  ctx: RequestContext,
  code: number,
  value: unknown,
  shape: 'object' | 'list' = 'object',
  fromCache = false,
): void | Promise<void> {
  const enc = responseEncoding(ctx);
  // A custom resource converted by a webhook is converted asynchronously; everything else is not.
  const converted = convertForResponse(ctx, value);
  if (converted instanceof Promise)
    return converted.then((v) => writeConverted(ctx, enc, code, v, shape, fromCache));
  writeConverted(ctx, enc, code, converted, shape, fromCache);
}

function writeConverted(
  ctx: RequestContext,
  enc: ResponseEncoding,
  code: number,
  value: unknown,
  shape: 'object' | 'list',
  fromCache: boolean,
): void {
  const encoded =
    fromCache && !enc.conversion && !ctx.query.pretty
      ? encodeCached(enc.codec, value, shape, ctx.server.flavor, ctx.server.chunkPool, {
          cache: ctx.server.listSections,
          request: ctx.req.url ?? '',
        })
      : encodeWhole(ctx, enc, value, shape);
  const { body, headers } = maybeGzip(ctx, encoded);
  send(
    ctx.res,
    code,
    enc.contentType,
    body,
    { ...warningHeaders(ctx), ...headers },
    ctx.req.method === 'HEAD',
    ctx.server.chunkPool,
  );
  // Gzipped or a HEAD request: the chunks were not written, their buffers are free now.
  if (isByteChunks(encoded) && (body !== encoded || ctx.req.method === 'HEAD'))
    ctx.server.chunkPool.release(encoded);
}

function encodeWhole(
  ctx: RequestContext,
  enc: ResponseEncoding,
  value: unknown,
  shape: 'object' | 'list',
): Uint8Array {
  const converted = enc.conversion
    ? enc.conversion.convert(value, {
        flavor: ctx.server.flavor,
        def: ctx.def,
        range: enc.range,
        shape,
        url: ctx.url,
      })
    : value;
  // `pretty=true` (spec doc 1 §4.4) indents JSON for humans; other encodings are unchanged.
  return ctx.query.pretty && enc.codec.mediaType === 'application/json'
    ? new TextEncoder().encode(`${JSON.stringify(converted, null, 2)}\n`)
    : enc.codec.encode(converted, { flavor: ctx.server.flavor });
}

/** Writes a value as JSON regardless of Accept (discovery, /version). */
export function writeJson(
  res: ServerResponse,
  code: number,
  value: unknown,
  contentType = 'application/json',
  head = false,
): void {
  send(res, code, contentType, JSON.stringify(value), {}, head);
}

/**
 * Writes an error as a `Status`. The Status is encoded with the negotiated codec when one fits
 * (YAML, Protobuf for clients asking for it), otherwise JSON: an error never turns into a 406.
 */
export function writeError(
  target: {
    res: ServerResponse;
    accept?: string | undefined;
    flavor?: Flavor;
    offers?: readonly ResponseOffer[];
  },
  err: ApiError,
): void {
  const status = err.toStatus();
  const headers: Record<string, string | string[]> = { ...err.headers };
  if (err.code === 413) headers.Connection = 'close';
  let codec: Codec = jsonCodec;
  let contentType = 'application/json';
  const { flavor, offers } = target;
  if (flavor && offers && err.code !== 406) {
    try {
      const usable = offersFor(offers, flavor, { group: '', version: 'v1', kind: 'Status' }).filter(
        (o) => !o.conversion,
      );
      const enc = negotiateResponse(target.accept, usable, false);
      codec = enc.codec;
      contentType = enc.contentType;
    } catch {
      // Nothing acceptable: the Status goes out as JSON.
    }
  }
  const body = flavor ? codec.encode(status, { flavor }) : new TextEncoder().encode(JSON.stringify(status));
  send(target.res, err.code, contentType, body, headers);
}
