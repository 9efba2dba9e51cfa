import { createHash } from 'node:crypto';
import type { AuthenticationResult } from './authenticator.js';

/** What a token authenticator decided, kept for a while so the next request skips the work. */
export type CachedDecision =
  | { readonly ok: true; readonly result: AuthenticationResult }
  | { readonly ok: false; readonly detail: string };

/**
 * Options of `createTokenCache`; all optional: size (default 4096, `defaultTokenCacheOptions`; 0 or less
 * caches nothing) and the clock (default `Date.now`).
 */
export interface TokenCacheOptions {
  /** Entries kept; the oldest is dropped beyond it. Default 4096. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** The default size of a token cache: 4096 entries. Frozen. */
export const defaultTokenCacheOptions: Readonly<Required<Pick<TokenCacheOptions, 'maxEntries'>>> =
  Object.freeze({ maxEntries: 4096 });

/**
 * Decisions by token (or any string key, such as an authorization webhook's review), each until its
 * own deadline. Keys are SHA-256 digests, so the cache never holds a usable credential.
 */
export interface TokenCache<V = CachedDecision> {
  get(token: string): V | undefined;
  /** Keeps `decision` until `expiresAt` (epoch ms); a deadline already passed stores nothing. */
  set(token: string, decision: V, expiresAt: number): void;
  readonly size: number;
  clear(): void;
}

/**
 * An empty `TokenCache`: entries expire at their own deadline (checked on `get`) and, beyond `maxEntries`,
 * the least recently set entry is dropped. Never throws.
 */
export function createTokenCache<V = CachedDecision>(options: TokenCacheOptions = {}): TokenCache<V> {
  const o = { ...defaultTokenCacheOptions, ...options };
  const now = options.now ?? Date.now;
  const entries = new Map<string, { decision: V; expiresAt: number }>();
  const key = (token: string) => createHash('sha256').update(token).digest('base64');
  return {
    get(token) {
      const k = key(token);
      const e = entries.get(k);
      if (e === undefined) return undefined;
      if (e.expiresAt <= now()) {
        entries.delete(k);
        return undefined;
      }
      return e.decision;
    },
    set(token, decision, expiresAt) {
      if (expiresAt <= now() || o.maxEntries <= 0) return;
      const k = key(token);
      entries.delete(k);
      while (entries.size >= o.maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
      entries.set(k, { decision, expiresAt });
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
