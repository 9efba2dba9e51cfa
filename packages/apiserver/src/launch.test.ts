import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTlsSans } from './cli.js';
import { launchApiServer, servingCertNames } from './launch.js';

describe('serving certificate names', () => {
  it('include --host (as an IP or a DNS name) and every --tls-san', () => {
    expect(servingCertNames({ host: '10.1.2.3' })).toEqual({ dns: [], ip: ['10.1.2.3'] });
    expect(
      servingCertNames({ host: 'api.internal', tlsSubjectAltNames: ['[fd00::1]', 'Api.Example.com'] }),
    ).toEqual({ dns: ['api.internal', 'api.example.com'], ip: ['fd00::1'] });
    // A wildcard bind address names no host.
    expect(servingCertNames({ host: '0.0.0.0', tlsSubjectAltNames: ['::'] })).toEqual({ dns: [], ip: [] });
  });

  it('--tls-san accepts repeated flags and comma-separated lists', () => {
    expect(parseTlsSans(['a.example.com,10.0.0.5', ' b.example.com ', ''])).toEqual([
      'a.example.com',
      '10.0.0.5',
      'b.example.com',
    ]);
    expect(parseTlsSans(undefined)).toEqual([]);
  });

  it('launchApiServer issues a serving certificate valid for the extra names', async () => {
    const launched = await launchApiServer({ tlsSubjectAltNames: ['api.example.com', '10.0.0.5'] });
    try {
      const cert = new X509Certificate(launched.tls?.serving.cert ?? '');
      expect(cert.checkHost('api.example.com')).toBe('api.example.com');
      expect(cert.checkIP('10.0.0.5')).toBe('10.0.0.5');
      expect(cert.checkHost('localhost')).toBe('localhost');
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(cert.checkHost('other.example.com')).toBeUndefined();
    } finally {
      await launched.stop();
    }
  });
});
