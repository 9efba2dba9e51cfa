import type { RequestListener, Server } from 'node:http';
import { createServer as createHttpsServer, Server as HttpsServer, type ServerOptions } from 'node:https';
import type { SecureContext, SecureContextOptions } from 'node:tls';

/**
 * Node's TLS server builds its `SecureContext` (parsing the key, the certificate chain and the
 * client CAs) in its constructor: ~1–4 ms per server, the largest part of a warm test-server start.
 * A process that starts many servers with the same certificates (`@orchard/testing`) builds each
 * distinct context once: the first server with a certificate set builds it as usual, later ones are
 * built without building a context of their own (`AdoptingServer`) and are given the first one's.
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

/** The context the next `AdoptingServer` takes in its constructor (set just around `new`). */
let adopting: SecureContext | undefined;

/**
 * An `https.Server` whose constructor takes the context in `adopting` instead of building one:
 * Node's TLS server constructor always calls `setSecureContext(options)`, which builds a context
 * (~0.3 ms even without key and certificate) that the shared one would replace at once. Later
 * `setSecureContext` calls (none in Orchard) build as usual.
 */
class AdoptingServer extends HttpsServer {
  override setSecureContext(options: SecureContextOptions): void {
    const adopted = adopting;
    if (adopted === undefined) {
      super.setSecureContext(options);
      return;
    }
    adopting = undefined;
    (this as WithSharedCreds)._sharedCreds = adopted;
  }
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
    adopting = cached;
    let s: HttpsServer;
    try {
      s = new AdoptingServer(cheap, handle);
    } finally {
      adopting = undefined;
    }
    if ((s as WithSharedCreds)._sharedCreds === cached) return s;
    // A Node whose constructor does not go through setSecureContext: build the documented way.
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
