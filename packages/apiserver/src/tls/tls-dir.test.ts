import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCa } from './certs.js';
import { loadOrCreateTls, tlsFiles } from './tls-dir.js';

const root = mkdtempSync(join(tmpdir(), 'orchard-tls-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${n++}`);

describe('loadOrCreateTls', () => {
  it('creates the material once, then reuses every piece byte for byte', async () => {
    const dir = freshDir();
    const first = await loadOrCreateTls(dir, { ip: ['127.0.0.1'] });
    expect([first.ca, first.serving, first.admin]).toEqual(['created', 'created', 'created']);
    expect(statSync(join(dir, tlsFiles.caKey)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, tlsFiles.adminKey)).mode & 0o777).toBe(0o600);
    const again = await loadOrCreateTls(dir, { ip: ['127.0.0.1'] });
    expect([again.ca, again.serving, again.admin]).toEqual(['reused', 'reused', 'reused']);
    expect(again.tls.ca.cert).toBe(first.tls.ca.cert);
    expect(again.tls.serving).toEqual(first.tls.serving);
    expect(again.tls.admin).toEqual(first.tls.admin);
  });

  it('reissues only the serving certificate, from the same CA, when the wanted names change', async () => {
    const dir = freshDir();
    const first = await loadOrCreateTls(dir, { dns: ['a.example'] });
    const moved = await loadOrCreateTls(dir, { dns: ['b.example'], ip: ['10.0.0.5'] });
    expect([moved.ca, moved.serving, moved.admin]).toEqual(['reused', 'created', 'reused']);
    const cert = new X509Certificate(moved.tls.serving.cert);
    expect(cert.checkHost('b.example')).toBe('b.example');
    expect(cert.checkIP('10.0.0.5')).toBe('10.0.0.5');
    expect(cert.checkHost('a.example')).toBeUndefined();
    expect(cert.verify(new X509Certificate(first.tls.ca.cert).publicKey)).toBe(true);
    expect(moved.tls.admin).toEqual(first.tls.admin);
    // The same names in another order are the same set: nothing reissued.
    const same = await loadOrCreateTls(dir, { ip: ['10.0.0.5'], dns: ['B.example'] });
    expect(same.serving).toBe('reused');
  });

  it('reissues certificates that no longer chain to the CA (the CA files were replaced)', async () => {
    const dir = freshDir();
    await loadOrCreateTls(dir, {});
    const other = await generateCa();
    writeFileSync(join(dir, tlsFiles.caCert), other.cert);
    writeFileSync(join(dir, tlsFiles.caKey), other.key);
    const r = await loadOrCreateTls(dir, {});
    expect([r.ca, r.serving, r.admin]).toEqual(['reused', 'created', 'created']);
    expect(new X509Certificate(r.tls.admin.cert).verify(new X509Certificate(other.cert).publicKey)).toBe(
      true,
    );
  });

  it('recreates everything when the CA files are missing', async () => {
    const dir = freshDir();
    const first = await loadOrCreateTls(dir, {});
    rmSync(join(dir, tlsFiles.caKey));
    const r = await loadOrCreateTls(dir, {});
    expect([r.ca, r.serving, r.admin]).toEqual(['created', 'created', 'created']);
    expect(r.tls.ca.cert).not.toBe(first.tls.ca.cert);
  });

  it('refuses unreadable material with an error naming the file, and leaves it in place', async () => {
    const dir = freshDir();
    await loadOrCreateTls(dir, {});
    writeFileSync(join(dir, tlsFiles.caCert), 'not a certificate');
    await expect(loadOrCreateTls(dir, {})).rejects.toThrow(join(dir, tlsFiles.caCert));
    expect(readFileSync(join(dir, tlsFiles.caCert), 'utf8')).toBe('not a certificate');

    const dir2 = freshDir();
    await loadOrCreateTls(dir2, {});
    const stranger = await generateCa();
    writeFileSync(join(dir2, tlsFiles.caKey), stranger.key);
    await expect(loadOrCreateTls(dir2, {})).rejects.toThrow(/ca\.key: not a usable CA certificate and key/);

    const dir3 = freshDir();
    await loadOrCreateTls(dir3, {});
    writeFileSync(join(dir3, tlsFiles.adminKey), stranger.key);
    await expect(loadOrCreateTls(dir3, {})).rejects.toThrow(join(dir3, tlsFiles.adminKey));
  });
});
