import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CertificateAuthority,
  type GeneratedTls,
  generateCa,
  issueClientCert,
  issueServingCert,
  type KeyPairPem,
  loadCa,
  type SubjectAltNames,
  toSubjectAltNames,
} from './certs.js';

/** What `loadOrCreateTls` did with each piece of the material (for the start-up log and tests). */
export interface TlsDirResult {
  readonly tls: GeneratedTls;
  /** `reused`: read from the directory; `created`: generated and written now. */
  readonly ca: 'reused' | 'created';
  readonly serving: 'reused' | 'created';
  readonly admin: 'reused' | 'created';
}

/** The files of a TLS directory (`<data-dir>/tls`). Private keys are written with mode 0600. */
export const tlsFiles = Object.freeze({
  caCert: 'ca.crt',
  caKey: 'ca.key',
  servingCert: 'serving.crt',
  servingKey: 'serving.key',
  /** The names the serving certificate was issued for beyond the loopback ones (JSON). */
  servingNames: 'serving-names.json',
  adminCert: 'admin.crt',
  adminKey: 'admin.key',
});

/** A certificate closer than this to its end is reissued at start. */
const renewBeforeMs = 7 * 24 * 3600 * 1000;

/**
 * The server's CA, serving certificate and admin client certificate, kept in `dir` and reused on
 * restart so kubeconfigs written before stay valid. The CA is created once (and again only when its
 * files are missing or it expires). The serving certificate is reissued from the same CA when the
 * wanted names (`--host`, `--tls-san`) differ from those it was issued for, or it nears its end; the
 * admin certificate when it nears its end or no longer chains to the CA. A file that exists but
 * cannot be read as what it should be is an error naming it, never silently replaced.
 */
export async function loadOrCreateTls(dir: string, servingNames: SubjectAltNames): Promise<TlsDirResult> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = (name: string) => join(dir, name);
  const wantedNames = normalizeNames(servingNames);

  let ca: CertificateAuthority | undefined;
  const caPem = await readOptional(path(tlsFiles.caCert));
  const caKeyPem = await readOptional(path(tlsFiles.caKey));
  if (caPem !== undefined && caKeyPem !== undefined) {
    try {
      ca = await loadCa(caPem, caKeyPem);
    } catch (e) {
      throw new Error(
        `${path(tlsFiles.caCert)} / ${path(tlsFiles.caKey)}: not a usable CA certificate and key: ${message(e)}`,
      );
    }
    if (expiresSoon(caPem)) ca = undefined;
  }
  const caState = ca ? 'reused' : 'created';
  if (!ca) {
    ca = await generateCa();
    await writePair(path(tlsFiles.caCert), path(tlsFiles.caKey), ca);
  }

  let serving = await readPair(path(tlsFiles.servingCert), path(tlsFiles.servingKey), ca);
  const issuedNames = await readOptional(path(tlsFiles.servingNames));
  if (serving && issuedNames !== JSON.stringify(wantedNames)) serving = undefined;
  const servingState = serving ? 'reused' : 'created';
  if (!serving) {
    serving = await issueServingCert(ca, wantedNames);
    await writePair(path(tlsFiles.servingCert), path(tlsFiles.servingKey), serving);
    await writeFileAtomic(path(tlsFiles.servingNames), JSON.stringify(wantedNames), 0o644);
  }

  let admin = await readPair(path(tlsFiles.adminCert), path(tlsFiles.adminKey), ca);
  const adminState = admin ? 'reused' : 'created';
  if (!admin) {
    admin = await issueClientCert(ca, 'admin', ['system:masters']);
    await writePair(path(tlsFiles.adminCert), path(tlsFiles.adminKey), admin);
  }
  return { tls: { ca, serving, admin }, ca: caState, serving: servingState, admin: adminState };
}

/** Sorted, de-duplicated names, so the same flags in another order reuse the certificate. */
function normalizeNames(names: SubjectAltNames): { dns: string[]; ip: string[] } {
  const n = toSubjectAltNames([...(names.dns ?? []), ...(names.ip ?? [])]);
  return { dns: [...n.dns].sort(), ip: [...n.ip].sort() };
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`${file}: cannot be read: ${message(e)}`);
  }
}

/**
 * A certificate and key issued by `ca`, or undefined when either file is missing, the certificate
 * no longer chains to `ca` (the CA was recreated) or it nears its end. Unparsable files are errors.
 */
async function readPair(
  certFile: string,
  keyFile: string,
  ca: CertificateAuthority,
): Promise<KeyPairPem | undefined> {
  const cert = await readOptional(certFile);
  const key = await readOptional(keyFile);
  if (cert === undefined || key === undefined) return undefined;
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(cert);
  } catch (e) {
    throw new Error(`${certFile}: not a PEM certificate: ${message(e)}`);
  }
  const caCert = new X509Certificate(ca.cert);
  if (!parsed.checkIssued(caCert) || !parsed.verify(caCert.publicKey)) return undefined;
  try {
    if (!parsed.checkPrivateKey(createPrivateKey(key)))
      throw new Error(`the key does not belong to ${certFile}`);
  } catch (e) {
    throw new Error(`${keyFile}: not the private key of ${certFile}: ${message(e)}`);
  }
  if (expiresSoon(cert)) return undefined;
  return { cert, key };
}

function expiresSoon(certPem: string): boolean {
  return new Date(new X509Certificate(certPem).validTo).getTime() - Date.now() < renewBeforeMs;
}

async function writePair(certFile: string, keyFile: string, pair: KeyPairPem): Promise<void> {
  await writeFileAtomic(keyFile, pair.key, 0o600);
  await writeFileAtomic(certFile, pair.cert, 0o644);
}

/**
 * Writes through a temporary file, synced to disk before the rename, so neither a crash nor a power
 * loss leaves half a key behind.
 */
export async function writeFileAtomic(file: string, text: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await open(tmp, 'w', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
