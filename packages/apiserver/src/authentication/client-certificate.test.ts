import { describe, expect, it } from 'vitest';
import { generateCa } from '../tls/certs.js';
import { parseCaBundle } from './client-certificate.js';

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
