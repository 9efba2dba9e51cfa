import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM material for a loopback HTTPS test server: a CA, a serving pair for 127.0.0.1/localhost, a client pair. */
export interface TestTls {
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

/** Generates TestTls with the openssl CLI (EC P-256; each call bounded to 20 s). */
export function generateTestTls(clientSubject = '/CN=webhook-client/O=apiservers'): TestTls {
  const dir = mkdtempSync(join(tmpdir(), 'authn-tls-'));
  const run = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe', timeout: 20_000 });
  try {
    run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key');
    run(
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-subj',
      '/CN=authn-test-ca',
      '-days',
      '2',
      '-out',
      'ca.crt',
    );
    const leaf = (name: string, subject: string, ext: string) => {
      run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
      run('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
      writeFileSync(join(dir, `${name}.ext`), ext);
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.crt`,
      );
    };
    leaf(
      'server',
      '/CN=localhost',
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
    );
    leaf('client', clientSubject, 'extendedKeyUsage=clientAuth\n');
    const r = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      ca: r('ca.crt'),
      serverCert: r('server.crt'),
      serverKey: r('server.key'),
      clientCert: r('client.crt'),
      clientKey: r('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
