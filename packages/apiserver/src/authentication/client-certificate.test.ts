import type { AddressInfo } from 'node:net';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { generateCa, issueClientCert, issueServingCert } from '../tls/certs.js';
import { createClientCertificateReader, parseCaBundle } from './client-certificate.js';

describe('parseCaBundle', () => {
  it('parses a bundle once per process; each caller gets its own array', async () => {
    const ca = await generateCa('shared-ca');
    const a = parseCaBundle(ca.cert, 'a.pem');
    a.pop();
    const b = parseCaBundle(ca.cert, 'b.pem');
    expect(b).toHaveLength(1);
    expect(b[0]?.subject).toBe('CN=shared-ca');
  });

  it('names the source of a broken bundle every time (errors are not cached)', () => {
    const broken = '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n';
    expect(() => parseCaBundle(broken, 'one.pem')).toThrow(/^one\.pem: certificate 1: /);
    expect(() => parseCaBundle(broken, 'two.pem')).toThrow(/^two\.pem: certificate 1: /);
    expect(() => parseCaBundle('no pem here', 'three.pem')).toThrow('three.pem: no PEM certificate found');
  });
});

describe('createClientCertificateReader', () => {
  /** The server side of one TLS connection from a client presenting `client` (trusting `cas`). */
  async function serverSocket(cas: readonly string[], client: { cert: string; key: string }) {
    const ca = await generateCa('reader-server-ca');
    const serving = await issueServingCert(ca, { ip: ['127.0.0.1'] });
    const server = createServer({
      cert: serving.cert,
      key: serving.key,
      ca: [...cas],
      requestCert: true,
      rejectUnauthorized: false,
    });
    const accepted = new Promise<TLSSocket>((resolve) => server.once('secureConnection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect({ host: '127.0.0.1', port, ca: ca.cert, ...client });
    const peer = await accepted;
    return {
      peer,
      close: () => {
        socket.destroy();
        peer.destroy();
        server.close();
      },
    };
  }

  it('answers a connection from a certificate it read before without reading it again, per trust', async () => {
    const users = await generateCa('reader-users');
    const proxies = await generateCa('reader-proxies');
    const alice = await issueClientCert(users, 'alice', ['team-a', 'team-b']);
    const both = createClientCertificateReader([
      { name: 'client-ca', pem: users.cert },
      { name: 'requestheader-client-ca', pem: proxies.cert },
    ]);
    const proxyOnly = createClientCertificateReader([{ name: 'requestheader-client-ca', pem: proxies.cert }]);
    const want = { commonName: 'alice', organizations: ['team-a', 'team-b'], verifiedBy: ['client-ca'] };
    const first = await serverSocket([users.cert, proxies.cert], alice);
    const second = await serverSocket([users.cert, proxies.cert], alice);
    try {
      expect(both(first.peer)).toEqual(want);
      // The second connection is answered from the first's reading (the same frozen answer).
      expect(both(second.peer)).toBe(both(first.peer));
      // Another reader trusts other bundles: its own answer (the chain ends in none of them).
      expect(proxyOnly(second.peer)).toEqual({ commonName: 'alice', organizations: [], verifiedBy: [] });
    } finally {
      first.close();
      second.close();
    }
  });

  it('answers a certificate the handshake did not verify as presented but unverified, every time', async () => {
    const users = await generateCa('reader-users-2');
    const stranger = await generateCa('reader-stranger');
    const mallory = await issueClientCert(stranger, 'mallory', ['system:masters']);
    const reader = createClientCertificateReader([{ name: 'client-ca', pem: users.cert }]);
    for (let i = 0; i < 2; i++) {
      const conn = await serverSocket([users.cert], mallory);
      try {
        expect(conn.peer.authorized).toBe(false);
        expect(reader(conn.peer)).toEqual({ commonName: 'mallory', organizations: [], verifiedBy: [] });
      } finally {
        conn.close();
      }
    }
  });
});
