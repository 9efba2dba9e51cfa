/**
 * Serialize once: the encoded bytes of a cached object revision, per encoding, built on first use
 * and kept beside the object (as upstream's cachingObject does for watch events). The cache's
 * objects are never mutated (one object per stored revision), so bytes encoded from one stay valid
 * for as long as it lives; they are held weakly by the object, so they go when the revision leaves
 * the cache's state and window: memory is bounded by what the cache retains, one copy per encoding.
 */
const encodedByObject = new WeakMap<object, Map<unknown, Uint8Array>>();

/**
 * The bytes of `object` in the encoding `encoding` names (any stable identity: the codec object, a
 * codec plus a variant), from `encode` the first time and from memory afterwards. Only for objects
 * nobody mutates (those a watch cache hands out).
 */
export function encodedOnce(object: object, encoding: unknown, encode: () => Uint8Array): Uint8Array {
  let byEncoding = encodedByObject.get(object);
  if (!byEncoding) {
    byEncoding = new Map();
    encodedByObject.set(object, byEncoding);
  }
  let bytes = byEncoding.get(encoding);
  if (!bytes) {
    bytes = encode();
    byEncoding.set(encoding, bytes);
  }
  return bytes;
}
