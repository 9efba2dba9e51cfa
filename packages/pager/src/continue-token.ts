import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fromBase64Url, toBase64Url } from '@orchard/meta/internal';
import { continueExpiredMessage, inconsistentContinueMessage, PagerError } from './errors.js';

/** What a continue token carries (spec doc 1 §4.7): the snapshot and where the next page starts. */
export interface ContinuePosition {
  /** The snapshot revision of the first page; `undefined` = continue at the latest revision (inconsistent). */
  revision: number | undefined;
  /** The first key of the next page (keys >= it). */
  startKey: string;
}

/** A verified continue token: where the next page starts and when it was issued. */
export interface DecodedContinue extends ContinuePosition {
  /** When the token was issued (`now()` of the issuing codec). */
  issuedAt: number;
}

/** The HMAC key, lifetime and clock of continue tokens. */
export interface ContinueCodecOptions {
  /**
   * HMAC-SHA-256 key. Default: 32 random bytes per codec (per server). Servers that share a store and
   * accept each other's tokens pass the same key.
   */
  key?: Uint8Array;
  /** Token lifetime (spec doc 1 §8 "Continue token lifetime": 5 minutes). Default 300 000. */
  ttlMs?: number;
  /** Clock (default `Date.now`). */
  now?: () => number;
}

/** Defaults of `ContinueCodecOptions`: tokens live the spec's 5 minutes. */
export const defaultContinueCodecOptions = Object.freeze({ ttlMs: 5 * 60_000 });

/**
 * Issues and checks continue tokens: opaque (base64url), tamper-evident (HMAC over the payload), and
 * expiring. `decode` rejects a forged or corrupted token with `InvalidContinue` and an expired one with
 * `Expired` carrying a fresh inconsistent-continue token, as upstream does.
 */
export interface ContinueCodec {
  readonly ttlMs: number;
  encode(position: ContinuePosition): Promise<string>;
  decode(token: string): Promise<DecodedContinue>;
  /** The 410 for a token whose snapshot is gone (compacted): with a fresh token from the same key at the latest revision. */
  expired(startKey: string | undefined): Promise<PagerError>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Payload {
  v: 1;
  rv: number;
  start: string;
  iat: number;
}

/** Issues and verifies `continue` tokens: opaque, HMAC-signed, expiring after `ttlMs` (410 then). */
export function createContinueCodec(options: ContinueCodecOptions = {}): ContinueCodec {
  const ttlMs = options.ttlMs ?? defaultContinueCodecOptions.ttlMs;
  const now = options.now ?? Date.now;
  const key = options.key ?? new Uint8Array(randomBytes(32));
  // node:crypto's synchronous HMAC: far cheaper per token than a crypto.subtle round trip.
  const sign = (body: Uint8Array) => new Uint8Array(createHmac('sha256', key).update(body).digest());

  const bad = (why: string) =>
    new PagerError('InvalidContinue', `invalid continue token: ${why}`, { field: 'continue' });

  async function encode(position: ContinuePosition): Promise<string> {
    const payload: Payload = { v: 1, rv: position.revision ?? -1, start: position.startKey, iat: now() };
    const body = enc.encode(JSON.stringify(payload));
    const sig = sign(body);
    return `${toBase64Url(body)}.${toBase64Url(sig)}`;
  }

  async function expired(startKey: string | undefined): Promise<PagerError> {
    if (startKey === undefined) {
      return new PagerError('Expired', continueExpiredMessage, { field: 'continue' });
    }
    return new PagerError('Expired', inconsistentContinueMessage, {
      field: 'continue',
      continue: await encode({ revision: undefined, startKey }),
    });
  }

  async function decode(token: string): Promise<DecodedContinue> {
    const parts = token.split('.');
    if (parts.length !== 2) throw bad('malformed');
    const body = fromBase64Url(parts[0] as string);
    const sig = fromBase64Url(parts[1] as string);
    if (body === undefined || sig === undefined) throw bad('malformed');
    const expected = sign(body);
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) throw bad('signature mismatch');
    let p: Payload;
    try {
      p = JSON.parse(dec.decode(body)) as Payload;
    } catch {
      throw bad('malformed payload');
    }
    if (p.v !== 1 || typeof p.rv !== 'number' || typeof p.start !== 'string' || typeof p.iat !== 'number') {
      throw bad('unsupported payload');
    }
    if (now() - p.iat > ttlMs) throw await expired(p.start);
    return { revision: p.rv < 0 ? undefined : p.rv, startKey: p.start, issuedAt: p.iat };
  }

  return { ttlMs, encode, decode, expired };
}
