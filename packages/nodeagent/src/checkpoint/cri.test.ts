import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriError, connectCriRuntime } from './cri.js';
import { type FakeCriRuntime, startFakeCriRuntime } from './fake-runtime.js';
import { loadOrCreateServingCert } from './serving-cert.js';
import { tarEntries } from './tar.js';

describe('CRI CheckpointContainer over gRPC against the fake runtime (issue 17 item 5)', () => {
  let dir: string;
  let runtime: FakeCriRuntime;
  let bare: FakeCriRuntime;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cri-'));
    runtime = await startFakeCriRuntime({ socketPath: join(dir, 'cri.sock'), containerIds: ['c1'] });
    bare = await startFakeCriRuntime({
      socketPath: join(dir, 'bare.sock'),
      containerIds: [],
      mode: 'unimplemented',
    });
  });
  afterAll(async () => {
    await runtime?.stop();
    await bare?.stop();
  });

  it('writes a tar at the location; the deadline and timeout follow runtimeRequestTimeout', async () => {
    const client = connectCriRuntime(runtime.endpoint, { runtimeRequestTimeoutMs: 5000 });
    try {
      const location = join(dir, 'a.tar');
      await client.checkpointContainer({ container_id: 'c1', location, timeout: 0n });
      expect(tarEntries(readFileSync(location)).map((e) => e.name)).toContain('checkpoint/pages-1.img');
      expect(runtime.calls.at(-1)).toEqual({ containerId: 'c1', location, timeout: '5' });
      await client.checkpointContainer({ container_id: 'c1', location, timeout: 2n });
      expect(runtime.calls.at(-1)?.timeout).toBe('5');
      await client.checkpointContainer({ container_id: 'c1', location, timeout: 60n });
      expect(runtime.calls.at(-1)?.timeout).toBe('60');
    } finally {
      client.close();
    }
  });

  it('errors read as Go’s: NotFound, Internal, DeadlineExceeded, Unimplemented, Unavailable; negative timeouts refused', async () => {
    const client = connectCriRuntime(runtime.endpoint, { runtimeRequestTimeoutMs: 300 });
    const call = (id: string, timeout = 0n) =>
      client.checkpointContainer({ container_id: id, location: join(dir, 'b.tar'), timeout });
    try {
      await expect(call('nope')).rejects.toThrow(
        'rpc error: code = NotFound desc = could not find container "nope"',
      );
      runtime.setMode('fail', 'criu failed: type NOTIFY errno 0');
      await expect(call('c1')).rejects.toThrow(
        'rpc error: code = Internal desc = criu failed: type NOTIFY errno 0',
      );
      runtime.setMode('hang');
      const e = await call('c1').catch((x) => x);
      expect(e).toBeInstanceOf(CriError);
      expect((e as CriError).message).toMatch(/^rpc error: code = DeadlineExceeded desc = /);
      const before = runtime.calls.length;
      await expect(call('c1', -1n)).rejects.toThrow(
        'CheckpointContainer requires the timeout value to be > 0',
      );
      expect(runtime.calls.length).toBe(before);
    } finally {
      runtime.setMode('ok');
      client.close();
    }
    const none = connectCriRuntime(bare.endpoint);
    await expect(
      none.checkpointContainer({ container_id: 'c1', location: join(dir, 'c.tar'), timeout: 0n }),
    ).rejects.toThrow(/^rpc error: code = Unimplemented desc = /);
    none.close();
    const gone = connectCriRuntime(`unix://${join(dir, 'missing.sock')}`, { runtimeRequestTimeoutMs: 2000 });
    await expect(
      gone.checkpointContainer({ container_id: 'c1', location: join(dir, 'd.tar'), timeout: 0n }),
    ).rejects.toThrow(/^rpc error: code = (Unavailable|DeadlineExceeded) desc = /);
    gone.close();
  });

  it('serving certificate: generated once in the cert dir (key 0600) and reused; given files win; one of two refused', async () => {
    const certDir = join(dir, 'pki');
    const first = await loadOrCreateServingCert({
      certDir,
      baseName: 'nodeagent',
      hostname: 'n1',
      altNames: ['10.0.0.5'],
    });
    expect(first.generated).toBe(true);
    expect(first.certFile).toBe(join(certDir, 'nodeagent.crt'));
    expect(statSync(first.keyFile).mode & 0o777).toBe(0o600);
    const { X509Certificate } = await import('node:crypto');
    const x = new X509Certificate(first.cert);
    expect(x.subject).toMatch(/^CN=n1@\d+$/);
    expect(x.subjectAltName).toContain('DNS:n1');
    expect(x.subjectAltName).toContain('IP Address:10.0.0.5');
    expect(x.checkHost('localhost')).toBe('localhost');
    const again = await loadOrCreateServingCert({ certDir, baseName: 'nodeagent', hostname: 'n1' });
    expect([again.generated, again.cert]).toEqual([false, first.cert]);
    writeFileSync(join(dir, 'own.crt'), first.cert);
    writeFileSync(join(dir, 'own.key'), first.key);
    const own = await loadOrCreateServingCert({
      certDir: join(dir, 'unused'),
      baseName: 'x',
      hostname: 'n1',
      certFile: join(dir, 'own.crt'),
      keyFile: join(dir, 'own.key'),
    });
    expect(own.certFile).toBe(join(dir, 'own.crt'));
    await expect(
      loadOrCreateServingCert({ certDir, baseName: 'x', hostname: 'n1', certFile: join(dir, 'own.crt') }),
    ).rejects.toThrow('tlsCertFile and tlsPrivateKeyFile must be given together');
    await expect(
      loadOrCreateServingCert({
        certDir,
        baseName: 'x',
        hostname: 'n1',
        certFile: join(dir, 'no.crt'),
        keyFile: join(dir, 'no.key'),
      }),
    ).rejects.toThrow(`${join(dir, 'no.crt')}: cannot read the serving certificate`);
  });
});
