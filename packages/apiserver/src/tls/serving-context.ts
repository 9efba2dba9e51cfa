import type { RequestListener, Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { SecureContext } from 'node:tls';

/**
 * Node's TLS server builds its `SecureContext` (parsing the key, the certificate chain and the
 * client CAs) in its constructor: ~1–4 ms per server, the largest part of a warm test-server start.
 * A process that starts many servers with the same certificates (`@orchard/testing`) builds each
 * distinct context once: the first server with a certificate set builds it as usual, later ones are
 * built without key, certificate and CAs (a cheap context) and are given the first one's context.
 * What a client sees is the same (one context serves any number of connections); servers with the
 * same certificates in one process also share the context's TLS session cache and ticket keys.
 */
const maxContexts = 16;
const contexts = new Map<string, SecureContext>();

/** The TLS server's own context field (`tls.Server` uses it for every connection it accepts). */
interface WithSharedCreds {
  _sharedCreds?: SecureContext;
}

/** The part of `options` that goes into the context: its cache key. */
function contextKey(options: ServerOptions): string {
  const cas = Array.isArray(options.ca) ? options.ca : options.ca === undefined ? [] : [options.ca];
  const parts = [options.cert, options.key, ...cas];
  // Only PEM strings are cached (buffers and other forms build their context every time).
  if (!parts.every((p) => typeof p === 'string')) return '';
  return JSON.stringify([parts, options.ciphers, options.minVersion, options.honorCipherOrder]);
}

/**
 * `https.createServer(options, handle)`, with the `SecureContext` of `options`' key, certificate and
 * CAs built once per process (at most 16 distinct sets are kept, the oldest dropped).
 */
export function createHttpsServerSharingContext(options: ServerOptions, handle: RequestListener): Server {
  const key = contextKey(options);
  const cached = key ? contexts.get(key) : undefined;
  if (cached) {
    const { cert: _cert, key: _key, ca: _ca, ...cheap } = options;
    const s = createHttpsServer(cheap, handle);
    if ('_sharedCreds' in s) {
      (s as WithSharedCreds)._sharedCreds = cached;
      return s;
    }
    // A Node without the field: build the context the documented way.
    s.setSecureContext(options);
    return s;
  }
  const s = createHttpsServer(options, handle);
  const built = (s as WithSharedCreds)._sharedCreds;
  if (key && built) {
    if (contexts.size >= maxContexts) contexts.delete(contexts.keys().next().value as string);
    contexts.set(key, built);
  }
  return s;
}
