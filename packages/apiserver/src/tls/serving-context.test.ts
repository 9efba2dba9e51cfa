import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { generateServerTls, issueClientCert } from './certs.js';
import { createHttpsServerSharingContext } from './serving-context.js';

const listen = (s: Server) =>
  new Promise<number>((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)),
  );
const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

/** One handshake: the server's certificate, and whether the server verified the client's. */
function handshake(port: number, ca: string, client?: { cert: string; key: string }) {
  return new Promise<{ subject: string; authorized: string }>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, ...(client ?? {}) }, () => {
      const peer: PeerCertificate = socket.getPeerCertificate();
      socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      let body = '';
      socket.on('data', (d) => {
        body += d;
      });
      socket.on('end', () =>
        resolve({ subject: String(peer.subject.CN ?? ''), authorized: body.split('\r\n\r\n')[1] ?? '' }),
      );
    });
    socket.on('error', reject);
  });
}

describe('HTTPS servers sharing a secure context', async () => {
  const tls = await generateServerTls();
  const other = await generateServerTls();
  const options = (t: typeof tls) => ({
    cert: t.serving.cert,
    key: t.serving.key,
    ca: [t.ca.cert],
    requestCert: true,
    rejectUnauthorized: false,
  });
  const handler: Parameters<typeof createHttpsServerSharingContext>[1] = (req, res) =>
    res.end(String((req.socket as import('node:tls').TLSSocket).authorized));

  it('serve the same certificate and verify client certificates against the same CAs', async () => {
    const servers = [options(tls), options(tls), options(other)].map((o) =>
      createHttpsServerSharingContext(o, handler),
    );
    const creds = servers.map((s) => (s as unknown as { _sharedCreds: unknown })._sharedCreds);
    expect(creds[1]).toBe(creds[0]);
    expect(creds[2]).not.toBe(creds[0]);
    try {
      const [a, b, c] = await Promise.all(servers.map(listen));
      const client = await issueClientCert(tls.ca, 'jane', []);
      for (const port of [a!, b!]) {
        expect(await handshake(port, tls.ca.cert, client)).toEqual({
          subject: 'orchard-apiserver',
          authorized: 'true',
        });
        expect((await handshake(port, tls.ca.cert)).authorized).toBe('false');
      }
      // A different certificate set builds its own context.
      expect((await handshake(c!, other.ca.cert, client)).authorized).toBe('false');
      await expect(handshake(c!, tls.ca.cert)).rejects.toThrow();
    } finally {
      await Promise.all(servers.map(close));
    }
  });
});
