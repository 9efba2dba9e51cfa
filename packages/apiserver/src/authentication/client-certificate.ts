import { X509Certificate } from 'node:crypto';
import type { Socket } from 'node:net';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { VerifiedClientCertificate } from '@orchard/authn';

/** A named CA bundle client certificates may chain to (`client-ca`, `requestheader-client-ca`). */
export interface ClientCaBundle {
  readonly name: string;
  readonly pem: string;
}

/**
 * The last bundles parsed, by PEM text: every test server of a process trusts the same CA, and a
 * parsed `X509Certificate` never changes, so servers share it (bounded; errors are not cached).
 */
const parsedBundles = new Map<string, readonly X509Certificate[]>();
const maxParsedBundles = 16;

/** Splits a PEM bundle into certificates; a bundle with none (or a broken one) is an error naming `source`. */
export function parseCaBundle(pem: string, source: string): X509Certificate[] {
  const hit = parsedBundles.get(pem);
  if (hit) return [...hit];
  const certs = parseBundle(pem, source);
  if (parsedBundles.size >= maxParsedBundles)
    parsedBundles.delete(parsedBundles.keys().next().value as string);
  parsedBundles.set(pem, Object.freeze([...certs]));
  return certs;
}

function parseBundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`${source}: no PEM certificate found`);
  return blocks.map((b, i) => {
    try {
      return new X509Certificate(b);
    } catch (e) {
      throw new Error(`${source}: certificate ${i + 1}: ${(e as Error).message}`);
    }
  });
}

/**
 * Reads the client certificate of a TLS connection. Node has already checked the chain against the
 * union of every bundle (`socket.authorized`); this finds which bundles the chain ends in, so the
 * request-header proxy's CA never doubles as a user CA. A certificate that was presented but
 * verified by no bundle comes back with an empty `verifiedBy`. The answer is cached per connection.
 */
export function createClientCertificateReader(
  bundles: readonly ClientCaBundle[],
): (socket: Socket) => VerifiedClientCertificate | undefined {
  const parsed = bundles.map((b) => ({ name: b.name, certs: parseCaBundle(b.pem, b.name) }));
  const trust = parsed.map((b) => `${b.name}=${b.certs.map((c) => c.fingerprint256).join(',')}`).join(';');
  const cache = new WeakMap<Socket, VerifiedClientCertificate | null>();
  return (socket) => {
    const cached = cache.get(socket);
    if (cached !== undefined) return cached ?? undefined;
    const result = readVerified(socket as TLSSocket, parsed, trust);
    cache.set(socket, result ?? null);
    return result;
  };
}

/**
 * What verified chains map to, by trusted bundles and the presented chain's fingerprints: the answer
 * is a function of those certificates alone (OpenSSL checks validity and signatures on every
 * handshake, before `socket.authorized`). Reading it afresh costs ~0.5 ms a connection (Node's
 * detailed peer object, a DER parse per chain certificate at ~150 µs, a signature check per CA),
 * which every new connection of every test server paid; the fingerprints cost a few µs. Bounded.
 */
const verifiedChains = new Map<string, VerifiedClientCertificate>();
const maxVerifiedChains = 256;

function readVerified(
  socket: TLSSocket,
  bundles: readonly { name: string; certs: X509Certificate[] }[],
  trust: string,
): VerifiedClientCertificate | undefined {
  // Presented but not valid: not cached (the answer carries no verification, and it is rare).
  if (!socket.authorized || typeof socket.getPeerX509Certificate !== 'function') return read(socket, bundles);
  const fingerprints: string[] = [];
  for (let c = socket.getPeerX509Certificate(); c && fingerprints.length < 10; c = c.issuerCertificate) {
    if (fingerprints.includes(c.fingerprint256)) break;
    fingerprints.push(c.fingerprint256);
  }
  if (fingerprints.length === 0) return undefined;
  const key = `${trust}|${fingerprints.join(',')}`;
  const hit = verifiedChains.get(key);
  if (hit) return hit;
  const result = read(socket, bundles);
  if (!result || result.verifiedBy.length === 0) return result;
  const answer = Object.freeze({
    ...result,
    organizations: Object.freeze([...result.organizations]),
    verifiedBy: Object.freeze([...result.verifiedBy]),
  });
  if (verifiedChains.size >= maxVerifiedChains)
    verifiedChains.delete(verifiedChains.keys().next().value as string);
  verifiedChains.set(key, answer);
  return answer;
}

function read(
  socket: TLSSocket,
  bundles: readonly { name: string; certs: X509Certificate[] }[],
): VerifiedClientCertificate | undefined {
  if (typeof socket.getPeerCertificate !== 'function') return undefined;
  const peer = socket.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
  if (!peer?.raw) return undefined;
  // Presented but not valid (unknown CA, expired, not yet valid): a credential that fails, which
  // the authenticator turns into a 401 unless another method succeeds (as upstream's x509 does).
  if (!socket.authorized) return presentedButUnverified(peer);
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let c: DetailedPeerCertificate | undefined = peer; c?.raw && chain.length < 10; ) {
    if (seen.has(c.fingerprint256)) break;
    seen.add(c.fingerprint256);
    try {
      chain.push(new X509Certificate(c.raw));
    } catch {
      return undefined;
    }
    c = c.issuerCertificate;
  }
  const leaf = chain[0];
  if (!leaf) return undefined;
  const verifiedBy = bundles
    .filter((b) =>
      chain.some((c) =>
        b.certs.some(
          (ca) => ca.fingerprint256 === c.fingerprint256 || (c.checkIssued(ca) && c.verify(ca.publicKey)),
        ),
      ),
    )
    .map((b) => b.name);
  if (verifiedBy.length === 0) return presentedButUnverified(peer);
  // Node's parsed subject: a repeated attribute (several O) is an array.
  const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  return { commonName: list(subject.CN)[0] ?? '', organizations: list(subject.O), verifiedBy };
}

function presentedButUnverified(peer: DetailedPeerCertificate): VerifiedClientCertificate {
  const subject = (peer.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
  const cn = subject.CN;
  return { commonName: (Array.isArray(cn) ? cn[0] : cn) ?? '', organizations: [], verifiedBy: [] };
}
