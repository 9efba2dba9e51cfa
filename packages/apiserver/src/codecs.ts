import {
  type AcceptRange,
  type Codec,
  contentTypeOf,
  jsonCodec,
  negotiate,
  type Offer,
  yamlCodec,
} from '@orchard/codecs';
import { createCborCodec } from '@orchard/codecs/cbor';
import { createProtobufCodec, protobufSupported } from '@orchard/codecs/protobuf';
import { errors, type Flavor, type GroupVersionKind } from '@orchard/meta';
import { type FeatureGateOverrides, featureEnabled } from './feature-gates.js';
import type { ResourceDefinition } from './registry/resource.js';

export type { Codec };
export type NegotiatedRange = AcceptRange;

/**
 * A response conversion selected by `Accept` parameters (`as=Table;g=meta.<domain>;v=v1`,
 * `as=PartialObjectMetadata…`). The Table engineer registers one; the server then offers it for
 * get/list/watch responses. `convert` gets the object, list or watch-event object and returns the
 * value to encode.
 */
export interface ResponseConversion {
  target(flavor: Flavor): { as: string; g: string; v: string };
  /** Media types (codec media types) it may be encoded with; default: every codec. */
  readonly mediaTypes?: readonly string[];
  convert(
    value: unknown,
    ctx: {
      readonly flavor: Flavor;
      readonly def: ResourceDefinition | undefined;
      readonly range: AcceptRange;
      /** `object` for get/create/update, `list`, or `watch` for each event's object (`first` tells if it is the first event). */
      readonly shape: 'object' | 'list' | 'watch';
      readonly first?: boolean;
      /** The request URL (query parameters such as `includeObject`). */
      readonly url?: URL;
    },
  ): unknown;
}

export interface ResponseOffer extends Offer {
  readonly codec: Codec;
  readonly conversion?: ResponseConversion;
}

/**
 * The default codecs of a flavor: JSON, YAML, Protobuf for the kinds that have a Protobuf form,
 * and CBOR (built-in and custom resources) when the gate `CBORServingAndStorage` is on.
 */
export function defaultCodecs(flavor: Flavor, featureGates?: FeatureGateOverrides): Codec[] {
  const protobuf = createProtobufCodec(flavor);
  const codecs: Codec[] = [
    jsonCodec,
    yamlCodec,
    { ...protobuf, supports: (gvk, ctx) => protobufSupported(gvk, ctx.flavor) },
  ];
  if (featureEnabled(featureGates, 'CBORServingAndStorage')) codecs.push(createCborCodec());
  return codecs;
}

/**
 * The offers usable for one resource: codecs that cannot represent the kind are left out, so a
 * client listing Protobuf then JSON gets JSON for a custom resource.
 */
export function offersFor(
  offers: readonly ResponseOffer[],
  flavor: Flavor,
  gvk: GroupVersionKind | undefined,
): ResponseOffer[] {
  if (!gvk) return offers.filter((o) => !o.codec.supports);
  return offers.filter((o) => o.conversion || !o.codec.supports || o.codec.supports(gvk, { flavor }));
}

export function buildOffers(
  codecs: readonly Codec[],
  conversions: readonly ResponseConversion[],
  flavor: Flavor,
): ResponseOffer[] {
  const offers: ResponseOffer[] = codecs.map((codec) => ({ mediaType: codec.mediaType, codec }));
  for (const conversion of conversions) {
    const target = conversion.target(flavor);
    for (const codec of codecs) {
      if (conversion.mediaTypes && !conversion.mediaTypes.includes(codec.mediaType)) continue;
      offers.push({ mediaType: codec.mediaType, codec, conversion, target });
    }
  }
  return offers;
}

export interface ResponseEncoding {
  readonly codec: Codec;
  readonly contentType: string;
  readonly range: AcceptRange;
  readonly conversion?: ResponseConversion;
}

/** Negotiates the response encoding; 406 NotAcceptable with a Status when nothing fits. */
export function negotiateResponse(
  accept: string | undefined,
  offers: readonly ResponseOffer[],
  streaming: boolean,
): ResponseEncoding {
  const usable = streaming ? offers.filter((o) => o.codec.stream) : offers;
  const n = negotiate(accept, usable, { streaming });
  if (!n) {
    throw errors.notAcceptable([...new Set(usable.map((o) => contentTypeOf(o)))]);
  }
  const contentType =
    streaming && n.offer.codec.stream ? n.offer.codec.stream.mediaType : n.offer.codec.mediaType;
  const withParams = n.offer.target
    ? contentTypeOf({ mediaType: contentType, target: n.offer.target })
    : contentType;
  return n.offer.conversion
    ? { codec: n.offer.codec, contentType: withParams, range: n.range, conversion: n.offer.conversion }
    : { codec: n.offer.codec, contentType: withParams, range: n.range };
}
