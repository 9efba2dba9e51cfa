import {
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  X509Certificate as NodeX509,
  randomBytes,
  sign,
  webcrypto,
} from 'node:crypto';
import { certificateParts as parts } from './certificate-parts.js';
import {
  bitString,
  children,
  explicit,
  ipBytes,
  ipVersion,
  octets,
  readElement,
  sequence,
  set,
  tlv,
  unsignedInteger,
  utf8,
  x509Time,
} from './der.js';
import { type EcKeyPair, keyIdentifier, newEcKeyPair } from './ec-keys.js';

/**
 * Certificates for the reference server: a self-signed CA, a serving certificate for loopback
 * names, and client certificates (CN = user, O = groups), with ECDSA P-256 keys (fast to generate,
 * accepted by Go's TLS stack that kubectl uses). Node can use X.509 material but has no API to
 * create it; the few DER shapes a certificate needs are built here (`der.ts`) and signed with
 * `node:crypto`, which takes a millisecond or two where a general ASN.1 library took ~50 ms for a
 * test server's first start. asn1js was measured building the same three certificates, signed the
 * same way: ~5 ms more CPU on a process's first start (median of 7 fresh processes: 12.1 against
 * 7.3 ms; packages/apiserver/README.md), so the DER stays hand-built. The `certificate` view is
 * Node's own `X509Certificate`: `@peculiar/x509` (and the `reflect-metadata` and asn1js it loads)
 * cost every process that imported this module ~140 ms, for a view few callers read.
 */

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A certificate and its private key, PEM encoded. */
export interface KeyPairPem {
  /** Certificate, PEM. */
  readonly cert: string;
  /** PKCS#8 private key, PEM. */
  readonly key: string;
}

/** A generated CA: its PEM key pair, used to issue serving and client certificates. */
export interface CertificateAuthority extends KeyPairPem {
  /**
   * The CA's private key (`node:crypto`). For WebCrypto users (such as `@peculiar/x509`'s
   * generator), `webCryptoKeys(ca)` imports the pair (WebCrypto's first use costs ~15 ms, so no start
   * pays it).
   */
  readonly privateKey: KeyObject;
  /** The CA certificate as `node:crypto` parses it (parsed on first read). */
  readonly certificate: NodeX509;
}

/** What issuing from a CA needs, kept beside it (not part of its public shape). */
interface Issuer {
  readonly privateKey: KeyObject;
  /** The CA certificate's subject, DER: the issuer of what it signs, byte for byte. */
  readonly subject: Buffer;
  /** Its key identifier (SHA-1 of the public key bits, RFC 5280 §4.2.1.2 method 1). */
  readonly keyId: Buffer;
}
const issuers = new WeakMap<CertificateAuthority, Issuer>();

const validityMs = 365 * 24 * 3600 * 1000;

/** A positive 16-byte serial number whose first byte is never zero (a minimal DER INTEGER as is). */
function serial(): Buffer {
  const b = randomBytes(16);
  b[0] = ((b[0] as number) & 0x3f) | 0x40;
  return unsignedInteger(b);
}

/** A distinguished name of CN and O attributes, one per RDN, in order. */
function name(attrs: readonly (readonly [Buffer, string])[]): Buffer {
  return sequence(...attrs.map(([type, value]) => set(sequence(type, utf8(value)))));
}

/** A non-critical extension (the critical ones are fixed: `certificateParts`). */
function extension(id: Buffer, value: Uint8Array): Buffer {
  return sequence(id, octets(value));
}

/** The public key bits of a SubjectPublicKeyInfo (DER), for key identifiers. */
function keyIdOf(spki: Buffer): Buffer {
  const [, bits] = children(readElement(spki).contents);
  if (bits?.tag !== 0x03) throw new Error('not a SubjectPublicKeyInfo');
  return keyIdentifier(bits.contents.subarray(1));
}

/** PEM as OpenSSL writes it: base64 in lines of 64 characters. */
function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += `${b64.slice(i, i + 64)}\n`;
  return `-----BEGIN ${label}-----\n${body}-----END ${label}-----\n`;
}

/** One certificate signed by `signer` (its own key for the self-signed CA). */
function certificateDer(input: {
  readonly issuer: Buffer;
  readonly subject: Buffer;
  readonly spki: Buffer;
  readonly extensions: readonly Buffer[];
  readonly signer: KeyObject;
}): Buffer {
  const notBefore = new Date(Date.now() - 60_000);
  const signature = parts.ecdsaWithSha256;
  const tbs = sequence(
    parts.version3,
    serial(),
    signature,
    input.issuer,
    sequence(x509Time(notBefore), x509Time(new Date(notBefore.getTime() + validityMs))),
    input.subject,
    input.spki,
    explicit(3, sequence(...input.extensions)),
  );
  return sequence(tbs, signature, bitString(sign('sha256', tbs, input.signer)));
}

/** The CA's key pair as WebCrypto keys (for `@peculiar/x509`'s generator and other WebCrypto users). */
export async function webCryptoKeys(
  ca: Pick<CertificateAuthority, 'privateKey'>,
): Promise<webcrypto.CryptoKeyPair> {
  const privateKey = ca.privateKey;
  const publicKey = createPublicKey(privateKey);
  const [priv, pub] = await Promise.all([
    webcrypto.subtle.importKey('pkcs8', privateKey.export({ type: 'pkcs8', format: 'der' }), alg, true, [
      'sign',
    ]),
    webcrypto.subtle.importKey('spki', publicKey.export({ type: 'spki', format: 'der' }), alg, true, [
      'verify',
    ]),
  ]);
  return { privateKey: priv, publicKey: pub };
}

/** A CA object: PEM, private key, the lazily parsed certificate, and its issuer data beside it. */
function caOf(cert: string, key: string, privateKey: KeyObject, issuer?: Issuer): CertificateAuthority {
  let parsed: NodeX509 | undefined;
  const ca: CertificateAuthority = {
    cert,
    key,
    privateKey,
    get certificate() {
      parsed ??= new NodeX509(cert);
      return parsed;
    },
  };
  if (issuer) issuers.set(ca, issuer);
  return ca;
}

/** The issuing data of a CA made elsewhere (`loadCa`, or built by a caller): read from its PEM. */
function issuerOf(ca: CertificateAuthority): Issuer {
  const known = issuers.get(ca);
  if (known) return known;
  const cert = new NodeX509(ca.cert);
  const [tbs] = children(readElement(cert.raw).contents);
  if (!tbs) throw new Error('the CA certificate has no tbsCertificate');
  const fields = children(tbs.contents);
  // version [0] is optional; then serial, signature, issuer, validity, subject.
  const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
  if (!subject) throw new Error('the CA certificate has no subject');
  const issuer: Issuer = {
    privateKey: ca.privateKey,
    subject: Buffer.from(subject.whole),
    keyId: keyIdOf(cert.publicKey.export({ type: 'spki', format: 'der' })),
  };
  issuers.set(ca, issuer);
  return issuer;
}

/** A new self-signed CA (`CN=<commonName>`), valid for a year. */
export async function generateCa(commonName = 'orchard-ca'): Promise<CertificateAuthority> {
  return selfSignedCa(newEcKeyPair(), commonName);
}

/** The self-signed CA certificate for a key pair (synchronous: the keys are made beforehand). */
function selfSignedCa(
  { privateKey, spki, publicKeyBits, pkcs8 }: EcKeyPair,
  commonName: string,
): CertificateAuthority {
  const subject = name([[parts.commonName, commonName]]);
  const keyId = keyIdentifier(publicKeyBits);
  const der = certificateDer({
    issuer: subject,
    subject,
    spki,
    signer: privateKey,
    extensions: [
      parts.caBasicConstraints,
      parts.caKeyUsage,
      extension(parts.subjectKeyIdentifier, octets(keyId)),
    ],
  });
  return caOf(pem('CERTIFICATE', der), pem('PRIVATE KEY', pkcs8), privateKey, {
    privateKey,
    subject,
    keyId,
  });
}

/**
 * A CA read back from its PEM certificate and PKCS#8 key (as `generateCa` wrote them), so a restarted
 * server keeps issuing from, and trusting, the same CA. Rejects when the key does not match the certificate.
 */
export async function loadCa(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const certificate = new NodeX509(certPem);
  const privateKey = createPrivateKey(keyPem);
  const publicKey = createPublicKey(privateKey);
  const spki = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
  if (!spki(publicKey).equals(spki(certificate.publicKey)))
    throw new Error('the CA private key does not belong to the CA certificate');
  const ca = caOf(certPem, keyPem, privateKey);
  issuerOf(ca); // the subject and key identifier, read from the certificate now
  return ca;
}

/** A certificate for `subject` with a new key pair, issued by `ca`. */
function issue(
  ca: CertificateAuthority,
  subject: Buffer,
  use: 'server' | 'client',
  sans: SubjectAltNames = {},
): KeyPairPem {
  const from = issuerOf(ca);
  const keys = newEcKeyPair();
  const extensions = [
    parts.leafBasicConstraints,
    parts.leafKeyUsage,
    use === 'server' ? parts.serverAuth : parts.clientAuth,
    extension(parts.authorityKeyIdentifier, sequence(tlv(0x80, from.keyId))),
  ];
  const names = [
    ...(sans.dns ?? []).map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...(sans.ip ?? []).map((ip) => tlv(0x87, ipBytes(ip))),
  ];
  if (names.length > 0) extensions.push(extension(parts.subjectAltName, sequence(...names)));
  const der = certificateDer({
    issuer: from.subject,
    subject,
    spki: keys.spki,
    signer: from.privateKey,
    extensions,
  });
  return { cert: pem('CERTIFICATE', der), key: pem('PRIVATE KEY', keys.pkcs8) };
}

/** Subject alternative names of a certificate, split by kind. */
export interface SubjectAltNames {
  readonly dns?: readonly string[];
  readonly ip?: readonly string[];
}

/**
 * Sorts names (`--tls-san` values, a `--host`) into IP and DNS subject alternative names. An IPv6
 * address may be bracketed; the unspecified addresses `0.0.0.0` and `::` name no host and are dropped,
 * as are empty strings and duplicates.
 */
export function toSubjectAltNames(names: readonly string[]): { dns: string[]; ip: string[] } {
  const dns = new Set<string>();
  const ip = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().replace(/^\[(.*)\]$/, '$1');
    if (name === '' || name === '0.0.0.0' || name === '::') continue;
    if (ipVersion(name) !== 0) ip.add(name);
    else dns.add(name.toLowerCase());
  }
  return { dns: [...dns], ip: [...ip] };
}

/** A serving certificate for `localhost`, `127.0.0.1` and `::1` (plus any extra names). */
export async function issueServingCert(
  ca: CertificateAuthority,
  extra: SubjectAltNames = {},
): Promise<KeyPairPem> {
  return issueServing(ca, extra);
}

function issueServing(ca: CertificateAuthority, extra: SubjectAltNames): KeyPairPem {
  const names = toSubjectAltNames([
    'localhost',
    '127.0.0.1',
    '::1',
    ...(extra.dns ?? []),
    ...(extra.ip ?? []),
  ]);
  return issue(ca, name([[parts.commonName, 'orchard-apiserver']]), 'server', names);
}

/** A client certificate: CN = user name, one O per group (the x509 authenticator's mapping). */
export async function issueClientCert(
  ca: CertificateAuthority,
  user: string,
  groups: readonly string[] = [],
): Promise<KeyPairPem> {
  return issue(ca, clientSubject(user, groups), 'client');
}

/** CN = user, one O per group, in order. */
function clientSubject(user: string, groups: readonly string[]): Buffer {
  return name([[parts.commonName, user], ...groups.map((g) => [parts.organization, g] as const)]);
}

/** Everything a server started with generated TLS needs. */
export interface GeneratedTls {
  readonly ca: CertificateAuthority;
  readonly serving: KeyPairPem;
  /** The admin client certificate (CN admin, O system:masters). */
  readonly admin: KeyPairPem;
}

/** A CA, a serving certificate for the loopback names plus `servingNames`, and the admin certificate. */
export async function generateServerTls(servingNames: SubjectAltNames = {}): Promise<GeneratedTls> {
  // All synchronous (three key pairs, three signatures): the promise is the function's shape only.
  const ca = selfSignedCa(newEcKeyPair(), 'orchard-ca');
  const serving = issueServing(ca, servingNames);
  return { ca, serving, admin: issue(ca, clientSubject('admin', ['system:masters']), 'client') };
}
