import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

/**
 * Certificates for the reference server: a self-signed CA, a serving certificate for loopback
 * names, and client certificates (CN = user, O = groups). Node can use X.509 material but has no
 * API to create it, so `@peculiar/x509` builds the ASN.1 on top of Node's WebCrypto (ECDSA P-256
 * keys: fast to generate, accepted by Go's TLS stack that kubectl uses).
 */
x509.cryptoProvider.set(webcrypto as never);

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
  readonly keys: webcrypto.CryptoKeyPair;
  readonly certificate: x509.X509Certificate;
}

const validityMs = 365 * 24 * 3600 * 1000;

function serial(): string {
  const b = webcrypto.getRandomValues(new Uint8Array(16));
  b[0] = (b[0] as number) & 0x7f;
  return Buffer.from(b).toString('hex');
}

async function keyPem(keys: webcrypto.CryptoKeyPair): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as webcrypto.CryptoKey);
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PRIVATE KEY-----\n${b64.trim()}\n-----END PRIVATE KEY-----\n`;
}

async function newKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

function escapeDn(v: string): string {
  return v.replace(/([,+"\\<>;=])/g, '\\$1');
}

/** A new self-signed CA (`CN=<commonName>`), valid for a year. */
export async function generateCa(commonName = 'orchard-ca'): Promise<CertificateAuthority> {
  const keys = await newKeys();
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${escapeDn(commonName)}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validityMs),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keys, certificate, cert: certificate.toString('pem'), key: await keyPem(keys) };
}

/**
 * A CA read back from its PEM certificate and PKCS#8 key (as `generateCa` wrote them), so a restarted
 * server keeps issuing from, and trusting, the same CA. Rejects when the key does not match the certificate.
 */
export async function loadCa(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certPem);
  const der = x509.PemConverter.decodeFirst(keyPem);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, alg, true, ['sign']);
  const publicKey = await certificate.publicKey.export(alg, ['verify']);
  const probe = new TextEncoder().encode('orchard-ca-key-check');
  const signature = await webcrypto.subtle.sign(alg, privateKey, probe);
  if (!(await webcrypto.subtle.verify(alg, publicKey, signature, probe)))
    throw new Error('the CA private key does not belong to the CA certificate');
  return { keys: { privateKey, publicKey }, certificate, cert: certPem, key: keyPem };
}

async function issue(
  ca: CertificateAuthority,
  subject: string,
  usage: 'server' | 'client',
  sans: { dns?: readonly string[]; ip?: readonly string[] } = {},
): Promise<KeyPairPem> {
  const keys = await newKeys();
  const notBefore = new Date(Date.now() - 60_000);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension([
      usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
    ]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
  ];
  const names = [
    ...(sans.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(sans.ip ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: ca.certificate.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validityMs),
    signingAlgorithm: alg,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions,
  });
  return { cert: certificate.toString('pem'), key: await keyPem(keys) };
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
    if (isIP(name) !== 0) ip.add(name);
    else dns.add(name.toLowerCase());
  }
  return { dns: [...dns], ip: [...ip] };
}

/** A serving certificate for `localhost`, `127.0.0.1` and `::1` (plus any extra names). */
export function issueServingCert(ca: CertificateAuthority, extra: SubjectAltNames = {}): Promise<KeyPairPem> {
  const names = toSubjectAltNames([
    'localhost',
    '127.0.0.1',
    '::1',
    ...(extra.dns ?? []),
    ...(extra.ip ?? []),
  ]);
  return issue(ca, 'CN=orchard-apiserver', 'server', names);
}

/** A client certificate: CN = user name, one O per group (the x509 authenticator's mapping). */
export function issueClientCert(
  ca: CertificateAuthority,
  user: string,
  groups: readonly string[] = [],
): Promise<KeyPairPem> {
  const dn = [`CN=${escapeDn(user)}`, ...groups.map((g) => `O=${escapeDn(g)}`)].join(', ');
  return issue(ca, dn, 'client');
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
  const ca = await generateCa();
  const [serving, admin] = await Promise.all([
    issueServingCert(ca, servingNames),
    issueClientCert(ca, 'admin', ['system:masters']),
  ]);
  return { ca, serving, admin };
}
