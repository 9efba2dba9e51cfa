import type { WatchEventType } from '@orchard/meta';
import type { ResponseEncoding } from '../codecs.js';
import type { RequestContext } from '../context.js';
import { convertForResponse } from '../crd/conversion.js';

/**
 * Encoded events by object, per stream encoder and event type: the watch cache hands the same object
 * to every watcher, so fan-out to N watchers serializes it once (as upstream's cachingObject does).
 */
const encodedEvents = new WeakMap<object, Map<unknown, Map<string, Uint8Array>>>();

function encodeShared(encoder: unknown, type: string, object: object, encode: () => Uint8Array): Uint8Array {
  let byEncoder = encodedEvents.get(object);
  if (!byEncoder) {
    byEncoder = new Map();
    encodedEvents.set(object, byEncoder);
  }
  let byType = byEncoder.get(encoder);
  if (!byType) {
    byType = new Map();
    byEncoder.set(encoder, byType);
  }
  let bytes = byType.get(type);
  if (!bytes) {
    bytes = encode();
    byType.set(type, bytes);
  }
  return bytes;
}

/**
 * A watch response: HTTP 200, chunked, one framed event per write. Headers are flushed at once
 * (clients wait for them before they consider the watch open).
 */
export class WatchStream {
  private first = true;
  private ended = false;
  private drained: Promise<void> | undefined;

  constructor(
    private readonly ctx: RequestContext,
    private readonly enc: ResponseEncoding,
  ) {
    const stream = enc.codec.stream;
    if (!stream) throw new Error(`codec ${enc.codec.mediaType} cannot stream`);
    ctx.res.writeHead(200, {
      'Content-Type': enc.contentType,
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
      'X-Content-Type-Options': 'nosniff',
    });
    ctx.res.flushHeaders();
  }

  /** Writes one event; resolves when the socket accepted it (back-pressure). */
  send(type: WatchEventType, object: unknown): Promise<void> {
    if (this.ended) return Promise.resolve();
    if (type !== 'ERROR' && type !== 'BOOKMARK') object = convertForResponse(this.ctx, object);
    const stream = this.enc.codec.stream;
    if (!stream) return Promise.resolve();
    const conv = this.enc.conversion;
    const obj =
      conv && type !== 'ERROR' && type !== 'BOOKMARK'
        ? conv.convert(object, {
            flavor: this.ctx.server.flavor,
            def: this.ctx.def,
            range: this.enc.range,
            shape: 'watch',
            first: this.first,
            url: this.ctx.url,
          })
        : object;
    this.first = false;
    const bytes =
      obj === object &&
      typeof object === 'object' &&
      object !== null &&
      type !== 'ERROR' &&
      type !== 'BOOKMARK'
        ? encodeShared(stream, type, object, () =>
            stream.encodeEvent({ type, object: obj }, { flavor: this.ctx.server.flavor }),
          )
        : stream.encodeEvent({ type, object: obj }, { flavor: this.ctx.server.flavor });
    const res = this.ctx.res;
    const ok = res.write(bytes);
    if (ok) return Promise.resolve();
    // A reader this far behind is closed rather than buffered without end; it resumes from the
    // last resourceVersion it saw, as after any watch timeout.
    if (res.writableLength > this.ctx.server.options.maxWatchBufferBytes) {
      this.closeSlowReader();
      return Promise.resolve();
    }
    // One wait per stall, shared by every event written meanwhile: not a listener pair per event.
    this.drained ??= new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        this.drained = undefined;
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
    return this.drained;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.ctx.res.end();
  }

  /**
   * Ends the stream of a client that stopped reading and closes its connection once the queued
   * bytes are flushed, instead of keeping an idle keep-alive socket for a client that is behind.
   */
  closeSlowReader(): void {
    this.end();
    this.ctx.res.socket?.end();
  }
}
