import type { WatchEventType } from '@orchard/meta';
import type { ResponseEncoding } from '../codecs.js';
import type { RequestContext } from '../context.js';
import { convertForResponse } from '../crd/conversion.js';
import { toApiError } from '../errors.js';
import { jsonEventFromCached } from './encode-cached.js';

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

/** How long a watch closed for falling behind may keep its connection to flush what it had queued. */
const slowReaderGraceMs = 30_000;

/**
 * A watch response: HTTP 200, chunked, one framed event per write. Headers are flushed at once
 * (clients wait for them before they consider the watch open).
 *
 * Back-pressure: events go straight to the socket while it accepts them; once it does not, later
 * events wait here (as encoded bytes, mostly shared with every other watcher of the same object)
 * until the socket drains — one `drain` wait per stall on this response, never a listener on a
 * shared emitter. A client whose waiting bytes pass `maxWatchBufferBytes` is closed, after the
 * events already on the socket: it resumes from the last resourceVersion it read. The events a
 * watch starts with (its backlog or initial state, `markInitial(true)`) do not count against it.
 */
export class WatchStream {
  private first = true;
  private ended = false;
  private stalled = false;
  /** Encoded events waiting for the socket to drain; `live` ones count against the limit. */
  private pending: { bytes: Uint8Array; live: boolean }[] = [];
  private head = 0;
  private liveBytes = 0;
  private initial = false;
  private onSlow: (() => void) | undefined;
  /** The smaller of the server option and the watch-cache setting (both bound the same bytes). */
  private readonly limit: number;

  constructor(
    private readonly ctx: RequestContext,
    private readonly enc: ResponseEncoding,
  ) {
    const stream = enc.codec.stream;
    if (!stream) throw new Error(`codec ${enc.codec.mediaType} cannot stream`);
    this.limit = Math.min(
      ctx.server.options.maxWatchBufferBytes,
      ctx.server.watchCaches.settings.maxWatchBufferBytes,
    );
    ctx.res.writeHead(200, {
      'Content-Type': enc.contentType,
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
      'X-Content-Type-Options': 'nosniff',
    });
    ctx.res.flushHeaders();
  }

  /** Called once when the stream closes a client that fell behind (the caller ends its watch). */
  onSlowReader(fn: () => void): void {
    this.onSlow = fn;
  }

  /** Marks the events sent from now on as part of the watch's start (`true`) or as live changes. */
  markInitial(initial: boolean): void {
    this.initial = initial;
  }

  /** Number of events waiting for the socket to drain. */
  get waiting(): number {
    return this.pending.length - this.head;
  }

  /** Writes one event, or queues it while the socket is not accepting (see the class comment). */
  send(type: WatchEventType, object: unknown): void {
    if (this.ended || this.ending) return;
    const data = type !== 'ERROR' && type !== 'BOOKMARK';
    const converted = data ? convertForResponse(this.ctx, object) : object;
    // Events converted asynchronously (a CRD's conversion webhook) keep their order: each waits for
    // the one before. A failed conversion ends the stream with an ERROR event.
    if (converted instanceof Promise || this.converting) {
      this.converting = (this.converting ?? Promise.resolve()).then(async () => {
        try {
          this.sendConverted(type, await converted);
        } catch (e) {
          this.sendConverted('ERROR', toApiError(e).toStatus());
          this.end();
        }
      });
      return;
    }
    this.sendConverted(type, converted);
  }

  /** Events waiting for an asynchronous conversion, in order. */
  private converting: Promise<void> | undefined;
  /** `end()` was called while conversions were pending: it runs after them. */
  private ending = false;

  private sendConverted(type: WatchEventType, object: unknown): void {
    if (this.ended) return;
    const bytes = this.encode(type, object);
    if (!bytes) return;
    if (!this.stalled) {
      if (!this.ctx.res.write(bytes)) this.stall();
      return;
    }
    const live = !this.initial;
    this.pending.push({ bytes, live });
    if (!live) return;
    this.liveBytes += bytes.length;
    if (this.liveBytes > this.limit) this.closeSlowReader();
  }

  private encode(type: WatchEventType, object: unknown): Uint8Array | undefined {
    const stream = this.enc.codec.stream;
    if (!stream) return undefined;
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
    return obj === object && typeof object === 'object' && object !== null && type !== 'ERROR'
      ? encodeShared(
          stream,
          type,
          object,
          () =>
            jsonEventFromCached(this.enc.codec, type, object, this.ctx.server.flavor) ??
            stream.encodeEvent({ type, object: obj }, { flavor: this.ctx.server.flavor }),
        )
      : stream.encodeEvent({ type, object: obj }, { flavor: this.ctx.server.flavor });
  }

  private stall(): void {
    this.stalled = true;
    this.ctx.res.once('drain', this.drain);
  }

  /** The socket took what it had: write waiting events until it pushes back again. */
  private readonly drain = (): void => {
    this.stalled = false;
    if (this.ended) return;
    const res = this.ctx.res;
    while (this.head < this.pending.length) {
      const p = this.pending[this.head++] as { bytes: Uint8Array; live: boolean };
      if (p.live) this.liveBytes -= p.bytes.length;
      if (!res.write(p.bytes)) {
        this.stall();
        break;
      }
    }
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
  };

  /** Ends the stream after the events still waiting (an ERROR, the last changes before a timeout). */
  end(): void {
    if (this.ended) return;
    if (this.converting && !this.ending) {
      this.ending = true;
      void this.converting.then(() => this.end());
      return;
    }
    this.ended = true;
    const res = this.ctx.res;
    res.off('drain', this.drain);
    for (let i = this.head; i < this.pending.length; i++)
      res.write((this.pending[i] as { bytes: Uint8Array }).bytes);
    this.pending = [];
    this.head = 0;
    res.end();
  }

  /**
   * Ends the stream of a client that fell behind: the events already on the socket are flushed (the
   * waiting ones dropped), then the connection is closed, instead of keeping an idle keep-alive
   * socket for a client that is behind; one that does not read them within a grace period is cut.
   */
  closeSlowReader(): void {
    if (this.ended) return;
    this.pending = [];
    this.head = 0;
    this.end();
    const socket = this.ctx.res.socket;
    if (socket && !socket.destroyed) {
      socket.end();
      const cut = setTimeout(() => socket.destroy(), slowReaderGraceMs);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
    }
    this.onSlow?.();
  }
}
