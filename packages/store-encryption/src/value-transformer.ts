import { hasBrand } from '@orchard/meta/internal';
/**
 * A value transformer turns the bytes a layer above the store writes into the bytes stored, and back
 * (upstream's `value.Transformer`). `key` is the store key: authenticated providers (aesgcm) bind
 * the ciphertext to it, so a value copied under another key does not decrypt.
 *
 * Contract: `fromStorage(toStorage(v, k), k)` returns `v`. `fromStorage` throws `TransformError`
 * when the bytes cannot be turned back (no provider's prefix matches, a key is gone, the
 * authentication tag fails); it never returns garbage for an authenticated provider.
 */
export interface ValueTransformer {
  toStorage(value: Uint8Array, key: string): Uint8Array;
  fromStorage(stored: Uint8Array, key: string): FromStorage;
}

/** What `fromStorage` gives back. */
export interface FromStorage {
  readonly value: Uint8Array;
  /**
   * The value was read by a provider or key other than the one writes use (a rotation is under
   * way, or identity is first and the value is still encrypted): the next write must be made even
   * when the object did not change, so rewriting every object re-encrypts it.
   */
  readonly stale: boolean;
}

/** Why stored bytes could not be transformed back (upstream's message, e.g. `no matching prefix found`). */
export class TransformError extends Error {
  readonly orchardTransformError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'TransformError';
  }
}

/** Whether `e` is a `TransformError`; works across copies of this package. */
export function isTransformError(e: unknown): e is TransformError {
  return hasBrand(e, 'orchardTransformError');
}

/** A transformer and the prefix its output carries (upstream's `PrefixTransformer`). */
export interface PrefixedTransformer {
  readonly prefix: Uint8Array;
  readonly transformer: ValueTransformer;
}

function hasPrefix(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.byteLength < prefix.byteLength) return false;
  for (let i = 0; i < prefix.byteLength; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * Upstream's prefix transformers: writes use the first entry and carry its prefix; reads try every
 * entry whose prefix matches, in order. A read by any entry but the first is `stale`. An entry
 * with an empty prefix (identity) that fails is skipped without error, so identity can sit before
 * an encrypting provider while encrypted values remain; an entry with a prefix that fails does not
 * stop later entries with the same prefix (the same provider twice with different keys). When
 * nothing matches the error is the failures seen, or `noMatch`.
 */
export function createPrefixTransformers(
  entries: readonly PrefixedTransformer[],
  noMatch: string,
): ValueTransformer {
  const first = entries[0];
  if (!first) throw new Error('createPrefixTransformers: at least one transformer is required');
  return {
    toStorage(value, key) {
      const body = first.transformer.toStorage(value, key);
      const out = new Uint8Array(first.prefix.byteLength + body.byteLength);
      out.set(first.prefix, 0);
      out.set(body, first.prefix.byteLength);
      return out;
    },
    fromStorage(stored, key) {
      const failures: string[] = [];
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i] as PrefixedTransformer;
        if (!hasPrefix(stored, e.prefix)) continue;
        try {
          const r = e.transformer.fromStorage(stored.subarray(e.prefix.byteLength), key);
          return { value: r.value, stale: r.stale || i !== 0 };
        } catch (err) {
          if (!isTransformError(err)) throw err;
          if (e.prefix.byteLength === 0) continue;
          failures.push(err.message);
        }
      }
      if (failures.length === 1) throw new TransformError(failures[0] as string);
      if (failures.length > 1) throw new TransformError(`[${[...new Set(failures)].join(', ')}]`);
      throw new TransformError(noMatch);
    },
  };
}
