import 'reflect-metadata';
import { createHash, createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateServerTls, issueClientCert, loadCa, toSubjectAltNames, webCryptoKeys } from './certs.js';
import { buildKubeconfig } from './kubeconfig.js';

describe('generated TLS material', async () => {
  const tls = await generateServerTls();
  const ca = new X509Certificate(tls.ca.cert);
  const serving = new X509Certificate(tls.serving.cert);
  const admin = new X509Certificate(tls.admin.cert);

  it('makes a self-signed CA that signed the serving and admin certificates', () => {
    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(admin.verify(ca.publicKey)).toBe(true);
    expect(serving.ca).toBe(false);
  });

  it('gives the CA, the serving and the admin certificate a key pair each (generated side by side)', () => {
    const spki = (c: X509Certificate) => c.publicKey.export({ type: 'spki', format: 'der' }).toString('hex');
    expect(new Set([spki(ca), spki(serving), spki(admin)]).size).toBe(3);
    expect(new Set([tls.ca.key, tls.serving.key, tls.admin.key]).size).toBe(3);
    expect(createPublicKey(tls.serving.key).equals(serving.publicKey)).toBe(true);
    expect(createPublicKey(tls.admin.key).equals(admin.publicKey)).toBe(true);
  });

  it('gives each certificate its usages, a year of validity and the CA key identifier chain', () => {
    const read = (pem: string) => new x509.X509Certificate(pem);
    const [c, s, a] = [read(tls.ca.cert), read(tls.serving.cert), read(tls.admin.cert)];
    const ski = c.getExtension(x509.SubjectKeyIdentifierExtension);
    const keyBits = ca.publicKey.export({ type: 'spki', format: 'der' }).subarray(-65);
    expect(ski?.keyId).toBe(createHash('sha1').update(keyBits).digest('hex'));
    for (const leaf of [s, a]) {
      expect(leaf.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(ski?.keyId);
      expect(leaf.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: false, critical: true });
      const ku = leaf.getExtension(x509.KeyUsagesExtension);
      expect(ku?.critical).toBe(true);
      expect(ku?.usages).toBe(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment);
    }
    expect(c.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: true, critical: true });
    expect(c.getExtension(x509.KeyUsagesExtension)?.usages).toBe(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
    );
    expect(s.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(a.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual(['1.3.6.1.5.5.7.3.2']);
    for (const cert of [c, s, a]) {
      expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(365 * 24 * 3600 * 1000);
      expect(Math.abs(Date.now() - 60_000 - cert.notBefore.getTime())).toBeLessThan(10 * 60_000);
    }
  });

  it('writes the private keys as OpenSSL writes PKCS#8 PEM', () => {
    for (const pem of [tls.ca.key, tls.serving.key, tls.admin.key])
      expect(createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' })).toBe(pem);
  });

  it('serves loopback names', () => {
    expect(serving.subjectAltName).toContain('DNS:localhost');
    expect(serving.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(serving.checkHost('localhost')).toBe('localhost');
  });

  it('names the admin CN=admin, O=system:masters, for client authentication', () => {
    expect(admin.subject).toContain('CN=admin');
    expect(admin.subject).toContain('O=system:masters');
    expect(admin.keyUsage).toContain('1.3.6.1.5.5.7.3.2');
  });

  it('issues client certificates with one O per group', async () => {
    const c = new X509Certificate((await issueClientCert(tls.ca, 'jane', ['devs', 'ops'])).cert);
    expect(c.subject.split('\n')).toEqual(expect.arrayContaining(['CN=jane', 'O=devs', 'O=ops']));
  });

  it('keeps names with DN specials as they are (one attribute each) and chains to the CA', async () => {
    const c = new X509Certificate((await issueClientCert(tls.ca, 'ja,ne+"x"=', ['a+b', 'ü'])).cert);
    expect(c.checkIssued(ca)).toBe(true);
    expect(c.verify(ca.publicKey)).toBe(true);
    expect(c.subject.split('\n')).toEqual(['CN=ja\\,ne\\+\\"x\\"=', 'O=a\\+b', 'O=ü']);
  });

  it('issues from a CA read back from its PEM as from the one it generated', async () => {
    const loaded = await loadCa(tls.ca.cert, tls.ca.key);
    const c = new X509Certificate((await issueClientCert(loaded, 'bob')).cert);
    expect(c.checkIssued(ca)).toBe(true);
    expect(c.verify(ca.publicKey)).toBe(true);
    await expect(loadCa(tls.ca.cert, tls.admin.key)).rejects.toThrow(
      'the CA private key does not belong to the CA certificate',
    );
    expect(loaded.certificate.subject).toBe('CN=orchard-ca');
    const keys = await webCryptoKeys(loaded);
    expect(keys.privateKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
  });

  it('writes a kubeconfig with the CA and the client certificate, or none in insecure mode', () => {
    const kc = parse(
      buildKubeconfig({
        server: 'https://127.0.0.1:1',
        caPem: tls.ca.cert,
        clientCertPem: tls.admin.cert,
        clientKeyPem: tls.admin.key,
      }),
    );
    expect(kc['current-context']).toBe('orchard');
    expect(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(
      tls.ca.cert,
    );
    expect(Buffer.from(kc.users[0].user['client-key-data'], 'base64').toString()).toBe(tls.admin.key);
    const insecure = parse(buildKubeconfig({ server: 'http://127.0.0.1:1' }));
    expect(insecure.users[0].user).toEqual({});
    expect(insecure.clusters[0].cluster).toEqual({ server: 'http://127.0.0.1:1' });
  });

  it('quotes names and URLs that YAML would read as something else', () => {
    const kc = parse(
      buildKubeconfig({ server: 'https://[::1]:6443/a b', name: 'a: b #c', user: 'yes', caPem: 'q' }),
    );
    expect(kc.clusters[0]).toEqual({
      name: 'a: b #c',
      cluster: { server: 'https://[::1]:6443/a b', 'certificate-authority-data': 'cQ==' },
    });
    expect(kc.contexts[0].context).toEqual({ cluster: 'a: b #c', user: 'yes' });
    expect(kc['current-context']).toBe('a: b #c');
    expect(parse(buildKubeconfig({ server: 'http://h', name: '__proto__' }))['current-context']).toBe(
      '__proto__',
    );
  });
});

describe('extra serving names', () => {
  it('sorts names into IP and DNS subject alternative names', () => {
    expect(toSubjectAltNames(['10.0.0.5', 'Host.Example', '[::2]', '0.0.0.0', '', 'host.example'])).toEqual({
      dns: ['host.example'],
      ip: ['10.0.0.5', '::2'],
    });
  });

  it('adds them to the loopback names of the serving certificate', async () => {
    const tls = await generateServerTls({ dns: ['api.example.com'], ip: ['192.0.2.7'] });
    const serving = new X509Certificate(tls.serving.cert);
    expect(serving.subjectAltName).toContain('DNS:api.example.com');
    expect(serving.subjectAltName).toContain('IP Address:192.0.2.7');
    expect(serving.checkIP('::1')).toBe('::1');
    expect(serving.checkHost('localhost')).toBe('localhost');
  });
});
