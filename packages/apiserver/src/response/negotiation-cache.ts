import type { Flavor, GroupVersionKind } from '@orchard/meta';
import { negotiateResponse, offersFor, type ResponseEncoding, type ResponseOffer } from '../codecs.js';
import type { ResourceDefinition } from '../registry/resource.js';

/** The offers that fit one kind and version, and the encodings negotiated for them so far, per `Accept`. */
interface KindNegotiation {
  readonly offers: ResponseOffer[];
  readonly byAccept: Map<string, ResponseEncoding>;
}

/**
 * Distinct `Accept` values remembered per kind and version: clients send a handful; a client sending
 * ever new ones is negotiated afresh each time rather than growing memory.
 */
const maxAcceptsPerKind = 32;

/** Per server offers list (replaced when the codecs change), per resource type, per version. */
const cache = new WeakMap<
  readonly ResponseOffer[],
  WeakMap<ResourceDefinition, Map<string, KindNegotiation>>
>();

function kindNegotiation(
  offers: readonly ResponseOffer[],
  flavor: Flavor,
  def: ResourceDefinition,
  version: string,
): KindNegotiation {
  let byDef = cache.get(offers);
  if (!byDef) {
    byDef = new WeakMap();
    cache.set(offers, byDef);
  }
  let byVersion = byDef.get(def);
  if (!byVersion) {
    byVersion = new Map();
    byDef.set(def, byVersion);
  }
  let entry = byVersion.get(version);
  if (!entry) {
    const gvk: GroupVersionKind = { group: def.group, version, kind: def.kind };
    entry = { offers: offersFor(offers, flavor, gvk), byAccept: new Map() };
    byVersion.set(version, entry);
  }
  return entry;
}

/**
 * `negotiateResponse` for an object or list of `def` at `version`, remembered per `Accept` value:
 * the offers that fit the kind and the chosen encoding depend on nothing else. A response
 * conversion (Table …) is negotiated afresh each time, and a 406 is never remembered.
 */
export function negotiateForKind(
  offers: readonly ResponseOffer[],
  flavor: Flavor,
  def: ResourceDefinition,
  version: string,
  accept: string | undefined,
  streaming: boolean,
): ResponseEncoding {
  const entry = kindNegotiation(offers, flavor, def, version);
  const key = `${streaming ? 's' : 'o'}${accept === undefined ? '' : `:${accept}`}`;
  const known = entry.byAccept.get(key);
  if (known) return known;
  const enc = negotiateResponse(accept, entry.offers, streaming);
  if (!enc.conversion && entry.byAccept.size < maxAcceptsPerKind) entry.byAccept.set(key, Object.freeze(enc));
  return enc;
}
