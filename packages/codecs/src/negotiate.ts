import { type Codec, CodecError } from './codec.js';
import { type AcceptRange, essence, parseAccept, parseMediaType } from './media-type.js';

/**
 * What the server can answer for one endpoint: a media type, optionally a conversion target
 * (`as`, `g`, `v` parameters: `as=Table;g=meta.orch.io;v=v1`, `as=APIGroupDiscoveryList;g=apidiscovery…;v=v2`).
 * An offer without `target` is the object itself.
 */
export interface Offer {
  /** `type/subtype` without parameters. */
  readonly mediaType: string;
  /** The conversion this offer serves; a range naming `as`/`g`/`v` only matches an offer with equal values. */
  readonly target?: { readonly as: string; readonly g: string; readonly v: string };
}

/** The negotiated answer: the offer and the Accept range that selected it (its parameters: `pretty`, `includeObject` …). */
export interface Negotiated<T extends Offer> {
  readonly offer: T;
  readonly range: AcceptRange;
}

function typeMatches(range: AcceptRange, mediaType: string): boolean {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  if (range.type === '*') return range.subtype === '*';
  if (range.type !== type) return false;
  return range.subtype === '*' || range.subtype === subtype;
}

function paramsMatch(range: AcceptRange, offer: Offer): boolean {
  const { as, g, v } = range.params;
  if (as === undefined && g === undefined && v === undefined) return offer.target === undefined;
  if (!offer.target) return false;
  // `as` is compared case-sensitively (kinds), group and version too, as upstream does.
  return as === offer.target.as && g === offer.target.g && v === offer.target.v;
}

function streamParamOk(range: AcceptRange, streaming: boolean): boolean {
  const s = range.params.stream;
  if (s === undefined) return true;
  return streaming && s === 'watch';
}

/** Whether the response being negotiated is a watch stream. */
export interface NegotiateOptions {
  /** The request is a watch: a range with `stream=watch` is then acceptable. */
  readonly streaming?: boolean;
}

/**
 * Picks the offer for an `Accept` header (RFC 9110 §12.5.1): ranges by quality, then header order;
 * `q=0` excludes; within a range the first matching offer wins, so list offers in preference order.
 * Returns undefined when nothing is acceptable (the caller answers 406).
 */
export function negotiate<T extends Offer>(
  accept: string | undefined | null,
  offers: readonly T[],
  options: NegotiateOptions = {},
): Negotiated<T> | undefined {
  const ranges = parseAccept(accept);
  for (const range of ranges) {
    if (range.q <= 0) continue;
    if (!streamParamOk(range, options.streaming === true)) continue;
    for (const offer of offers) {
      if (!typeMatches(range, offer.mediaType)) continue;
      if (!paramsMatch(range, offer)) continue;
      // A later range with q=0 naming this exact type excludes it (`application/json;q=0`).
      if (ranges.some((r) => r.q === 0 && essence(r) === offer.mediaType && paramsMatch(r, offer))) {
        continue;
      }
      return { offer, range };
    }
  }
  return undefined;
}

/** The response `Content-Type` for a negotiated offer: the media type plus its conversion parameters. */
export function contentTypeOf(offer: Offer): string {
  if (!offer.target) return offer.mediaType;
  return `${offer.mediaType};g=${offer.target.g};v=${offer.target.v};as=${offer.target.as}`;
}

/**
 * Finds the codec for a request body's `Content-Type`. A missing header means JSON (as upstream
 * assumes for bodies without one). Rejects with `CodecError` `Unsupported` (→ 415).
 */
export function codecForContentType(contentType: string | undefined | null, codecs: readonly Codec[]): Codec {
  const header = contentType?.trim() ?? '';
  const mt = header === '' ? parseMediaType('application/json') : parseMediaType(header);
  if (mt) {
    const e = essence(mt);
    for (const c of codecs) {
      if (c.mediaType === e || c.aliases?.includes(e)) return c;
    }
  }
  throw new CodecError(
    'Unsupported',
    header,
    `the body of the request was in an unknown format - accepted media types include: ${codecs.map((c) => c.mediaType).join(', ')}`,
  );
}
