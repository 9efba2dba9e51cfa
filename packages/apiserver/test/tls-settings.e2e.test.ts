import { connect } from 'node:tls';
import { startTestServer, type TestServer } from '@orchard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The serving TLS settings of docs/security.md: TLS 1.2+, forward-secret AEAD suites only. */
describe('TLS settings', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ flavor: 'kubernetes' });
  });
  afterAll(async () => {
    await api.stop();
  });

  const handshake = (options: {
    minVersion?: 'TLSv1' | 'TLSv1.2';
    maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
    ciphers?: string;
  }) =>
    new Promise<{ ok: boolean; protocol?: string | null; cipher?: string }>((resolve) => {
      const { port } = new URL(api.url);
      const socket = connect({
        host: '127.0.0.1',
        port: Number(port),
        ca: api.tls?.ca.cert,
        servername: 'localhost',
        ...options,
      });
      socket.once('secureConnect', () => {
        resolve({ ok: true, protocol: socket.getProtocol(), cipher: socket.getCipher().name });
        socket.destroy();
      });
      socket.once('error', () => resolve({ ok: false }));
    });

  it('negotiates TLS 1.3 by default and TLS 1.2 with an AEAD suite', async () => {
    expect(await handshake({})).toMatchObject({ ok: true, protocol: 'TLSv1.3' });
    const v12 = await handshake({ maxVersion: 'TLSv1.2' });
    expect(v12).toMatchObject({ ok: true, protocol: 'TLSv1.2' });
    expect(v12.cipher).toMatch(/GCM|CHACHA20/);
  });

  it('refuses TLS 1.1 and CBC suites', async () => {
    expect(
      (await handshake({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).ok,
    ).toBe(false);
    expect(
      (await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA256:AES128-SHA' })).ok,
    ).toBe(false);
  });
});
