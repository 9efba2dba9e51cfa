import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { readConfigFile } from '../config.js';
import {
  checkpointArchivePath,
  parseTimeoutParameter,
  podFullName,
  runningContainerId,
} from './checkpoint.js';
import { parseFeatureGates, parsePort } from './cli-server.js';
import { codeName, criTarget } from './cri.js';
import { requestAttributes } from './delegated-auth.js';
import { cleanPath } from './server.js';
import { tarArchive, tarEntries } from './tar.js';

describe('checkpoint request pieces (issue 17 item 5)', () => {
  it('timeout: the last value, parsed as Go ParseInt(s, 10, 64)', () => {
    const t = (q: string) => parseTimeoutParameter(new URLSearchParams(q));
    expect(t('')).toBeUndefined();
    expect(t('timeout=0')).toBe(0n);
    expect(t('timeout=5&timeout=9')).toBe(9n);
    expect(t('timeout=%2B7')).toBe(7n);
    // A raw + is a space in a query (as Go's url.Query reads it).
    expect(t('timeout=+7')).toBe('invalid');
    expect(t('timeout=-3')).toBe(-3n);
    expect(t('timeout=9223372036854775807')).toBe(9223372036854775807n);
    expect(t('timeout=-9223372036854775808')).toBe(-9223372036854775808n);
    for (const bad of ['9223372036854775808', '1e3', '1.5', '', ' 5', '0x10', 'abc', '5s', '1'.repeat(40)])
      expect(t(`timeout=${encodeURIComponent(bad)}`), bad).toBe('invalid');
    expect(t('timeout=9&timeout=x')).toBe('invalid');
  });

  it('the archive path and pod full name are upstream kubelet’s', () => {
    expect(podFullName('default', 'web')).toBe('web_default');
    expect(
      checkpointArchivePath(
        '/var/lib/nodeagent/checkpoints',
        'ns',
        'web',
        'app',
        new Date(Date.UTC(2026, 10, 26, 12, 30, 5, 120)),
      ),
    ).toBe('/var/lib/nodeagent/checkpoints/checkpoint-web_ns-app-2026-11-26T12:30:05Z.tar');
  });

  it('the container ID comes from a running container status, scheme stripped', () => {
    const pod = {
      status: {
        containerStatuses: [
          { name: 'app', containerID: 'containerd://abc', state: { running: {} } },
          { name: 'done', containerID: 'containerd://def', state: { terminated: { exitCode: 0 } } },
          { name: 'raw', containerID: 'noscheme', state: { running: {} } },
        ],
        initContainerStatuses: [{ name: 'init', containerID: 'cri-o://0a1b', state: { running: {} } }],
        ephemeralContainerStatuses: [{ name: 'debug', containerID: 'docker://e1', state: { running: {} } }],
      },
    };
    expect(runningContainerId(pod, 'app')).toBe('abc');
    expect(runningContainerId(pod, 'init')).toBe('0a1b');
    expect(runningContainerId(pod, 'debug')).toBe('e1');
    expect(runningContainerId(pod, 'done')).toBeUndefined();
    expect(runningContainerId(pod, 'raw')).toBeUndefined();
    expect(runningContainerId(pod, 'missing')).toBeUndefined();
    expect(runningContainerId({ status: { containerStatuses: 'x' } }, 'app')).toBeUndefined();
    expect(runningContainerId({}, 'app')).toBeUndefined();
  });

  it('authorization attributes: kubelet’s verb and subresource mapping', () => {
    const a = (method: string, path: string) => requestAttributes(method, path, 'n1');
    expect(a('POST', '/checkpoint/ns/p/c')).toEqual({
      verb: 'create',
      resource: 'nodes',
      subresource: 'checkpoint',
      name: 'n1',
    });
    expect(a('GET', '/checkpoint')).toMatchObject({ verb: 'get', subresource: 'checkpoint' });
    expect(a('GET', '/checkpointx')).toMatchObject({ subresource: 'proxy' });
    expect(a('GET', '/stats/summary')).toMatchObject({ subresource: 'stats' });
    expect(a('GET', '/metrics/cadvisor')).toMatchObject({ subresource: 'metrics' });
    expect(a('GET', '/logs/')).toMatchObject({ subresource: 'log' });
    expect(a('PUT', '/pods')).toMatchObject({ verb: 'update', subresource: 'proxy' });
    expect(a('PATCH', '/x')).toMatchObject({ verb: 'patch' });
    expect(a('DELETE', '/x')).toMatchObject({ verb: 'delete' });
    expect(a('OPTIONS', '/x')).toMatchObject({ verb: '' });
    expect(a('constructor', '/x')).toMatchObject({ verb: '' });
  });

  it('paths are cleaned as Go’s ServeMux cleans them', () => {
    expect(cleanPath('/checkpoint/a/b/c')).toBe('/checkpoint/a/b/c');
    expect(cleanPath('/checkpoint/../a')).toBe('/a');
    expect(cleanPath('/checkpoint//a/./b')).toBe('/checkpoint/a/b');
    expect(cleanPath('/a/b/')).toBe('/a/b/');
    expect(cleanPath('/a/b/.')).toBe('/a/b');
    expect(cleanPath('/../../etc')).toBe('/etc');
  });

  it('flags: --feature-gates and --port', () => {
    expect(parseFeatureGates('ContainerCheckpoint=false, Other=TRUE')).toEqual({
      ContainerCheckpoint: false,
      Other: true,
    });
    expect(parseFeatureGates('')).toEqual({});
    expect(() => parseFeatureGates('__proto__=true')).toThrow('is not Name=true|false');
    expect(() => parseFeatureGates('ContainerCheckpoint')).toThrow(
      '--feature-gates: "ContainerCheckpoint" is not Name=true|false',
    );
    expect(() => parseFeatureGates('A=yes')).toThrow('is not Name=true|false');
    expect(parsePort('0')).toBe(0);
    expect(parsePort('10250')).toBe(10250);
    for (const bad of ['65536', '-1', 'http', '1.5', '', '999999'])
      expect(() => parsePort(bad), bad).toThrow('--port:');
  });

  it('CRI endpoints and Go’s gRPC code names', () => {
    expect(criTarget('unix:///run/containerd/containerd.sock')).toBe(
      'unix:///run/containerd/containerd.sock',
    );
    expect(criTarget('/run/crio/crio.sock')).toBe('unix:///run/crio/crio.sock');
    expect(() => criTarget('tcp://10.0.0.1:1234')).toThrow(
      'only unix:// container runtime endpoints are supported',
    );
    expect(() => criTarget('unix://relative.sock')).toThrow('must be absolute');
    expect(codeName(0)).toBe('OK');
    expect(codeName(4)).toBe('DeadlineExceeded');
    expect(codeName(12)).toBe('Unimplemented');
    expect(codeName(14)).toBe('Unavailable');
    expect(codeName(99)).toBe('Code(99)');
  });

  it('the tar writer makes archives tar(1) lists, and refuses names it cannot store', () => {
    const archive = tarArchive([
      { name: 'a.txt', data: 'hello' },
      { name: 'dir/b.bin', data: Buffer.alloc(1000, 1) },
    ]);
    expect(archive.length % 512).toBe(0);
    expect(tarEntries(archive)).toEqual([
      { name: 'a.txt', size: 5 },
      { name: 'dir/b.bin', size: 1000 },
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'tar-')), 'x.tar');
    writeFileSync(file, archive);
    expect(execFileSync('tar', ['-tvf', file], { encoding: 'utf8' })).toMatch(/a\.txt\n.*dir\/b\.bin\n$/);
    expect(() => tarArchive([{ name: 'n'.repeat(101), data: '' }])).toThrow('must be 1-100 bytes');
  });

  it('the configuration accepts the port’s fields and names a wrong one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'c.yaml');
    const head = 'apiVersion: nodeagent.config.orch.io/v1beta1\nkind: NodeAgentConfiguration\n';
    writeFileSync(
      file,
      `${head}port: 10350\ntlsCertFile: /p/c.crt\ntlsPrivateKeyFile: /p/c.key\nruntimeRequestTimeout: 30s\nfeatureGates: {ContainerCheckpoint: false}\nauthorization: {mode: AlwaysAllow}\n`,
    );
    expect(readConfigFile(file, orchFlavor)).toMatchObject({
      port: 10350,
      runtimeRequestTimeout: '30s',
      authorization: { mode: 'AlwaysAllow' },
    });
    writeFileSync(file, `${head}authorization: {mode: RBAC}\n`);
    expect(() => readConfigFile(file, orchFlavor)).toThrow(`${file}: authorization.mode`);
    writeFileSync(file, `${head}runtimeRequestTimeout: soon\n`);
    expect(() => readConfigFile(file, orchFlavor)).toThrow(`${file}: runtimeRequestTimeout`);
  });
});
