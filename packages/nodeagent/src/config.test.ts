import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configTypeOf,
  durationMs,
  loadNodeAgentConfig,
  mergeConfig,
  NodeAgentConfigError,
} from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'nodeagent-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const write = (text: string, name = `f${++n}.yaml`, under = dir): string => {
  const p = join(under, name);
  writeFileSync(p, text);
  return p;
};

describe('mergeConfig: the drop-in rules of spec doc 2 §2.9', () => {
  it.each([
    ['a scalar overrides', { maxPods: 110 }, { maxPods: 50 }, { maxPods: 50 }],
    ['an unset scalar is kept', { maxPods: 110, port: 1 }, { port: 2 }, { maxPods: 110, port: 2 }],
    [
      'an embedded struct merges field by field',
      { authentication: { webhook: { enabled: true, cacheTTL: '2m' }, anonymous: { enabled: false } } },
      { authentication: { webhook: { cacheTTL: '30s' } } },
      { authentication: { webhook: { enabled: true, cacheTTL: '30s' }, anonymous: { enabled: false } } },
    ],
    [
      'a list is replaced whole',
      { clusterDNS: ['10.0.0.10', '10.0.0.11'] },
      { clusterDNS: ['1.1.1.1'] },
      { clusterDNS: ['1.1.1.1'] },
    ],
    ['an empty list replaces too', { clusterDNS: ['10.0.0.10'] }, { clusterDNS: [] }, { clusterDNS: [] }],
    [
      'map keys override individually',
      { featureGates: { A: true, B: false } },
      { featureGates: { B: true, C: true } },
      { featureGates: { A: true, B: true, C: true } },
    ],
    [
      'a list-valued map key is replaced whole, other keys kept',
      { allowedUnsafeSysctlsByPod: { web: ['net.a', 'net.b'], db: ['kernel.x'] } },
      { allowedUnsafeSysctlsByPod: { web: ['net.c'] } },
      { allowedUnsafeSysctlsByPod: { web: ['net.c'], db: ['kernel.x'] } },
    ],
    [
      'a list of structs is replaced whole (not merged by index)',
      {
        registerWithTaints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'b', effect: 'NoExecute' },
        ],
      },
      { registerWithTaints: [{ key: 'c', effect: 'NoSchedule' }] },
      { registerWithTaints: [{ key: 'c', effect: 'NoSchedule' }] },
    ],
  ])('%s', (_name, base, dropIn, want) => {
    const before = structuredClone(base);
    expect(mergeConfig(base, dropIn)).toEqual(want);
    expect(base).toEqual(before);
  });

  it('a __proto__ key is kept as data, never reaching a prototype', () => {
    const dropIn = JSON.parse('{"featureGates":{"__proto__":{"polluted":true}}}');
    const merged = mergeConfig({ featureGates: { A: true } }, dropIn) as Record<string, any>;
    expect(Object.hasOwn(merged.featureGates, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe.each([orchFlavor, kubernetesFlavor])('loadNodeAgentConfig ($name flavor)', (flavor) => {
  const { apiVersion, kind } = configTypeOf(flavor);
  const head = `apiVersion: ${apiVersion}\nkind: ${kind}\n`;

  it('merges --config and the .conf drop-ins in lexical order, ignoring other files, then defaults', () => {
    const conf = write(`${head}maxPods: 100\nclusterDNS: [10.0.0.10]\nfeatureGates: {A: true, B: true}\n`);
    const d = join(dir, `drop-${flavor.name}`);
    mkdirSync(d);
    write(`${head}maxPods: 30\nfeatureGates: {B: false}\n`, '20-b.conf', d);
    write(`${head}maxPods: 20\nclusterDNS: [1.1.1.1, 8.8.8.8]\n`, '10-a.conf', d);
    write('not: a config', 'README.md', d);
    const c = loadNodeAgentConfig(flavor, { config: conf, configDir: d });
    expect(c.maxPods).toBe(30);
    expect(c.clusterDNS).toEqual(['1.1.1.1', '8.8.8.8']);
    expect(c.featureGates).toEqual({ A: true, B: false });
    expect(c.nodeLeaseDurationSeconds).toBe(40);
    expect(durationMs(c.nodeStatusUpdateFrequency)).toBe(10_000);
    expect(durationMs(c.nodeStatusReportFrequency)).toBe(300_000);
    expect(c.staticPodPath).toBe(
      flavor.name === 'kubernetes' ? '/etc/kubernetes/manifests' : '/etc/orch/manifests',
    );
  });

  it.each([
    ['an unknown field', 'maxPodz: 3\n', 'maxPodz: unknown field'],
    ['a wrong type', 'maxPods: "many"\n', 'maxPods: Invalid value'],
    [
      'a bad duration',
      'nodeStatusUpdateFrequency: soon\n',
      'nodeStatusUpdateFrequency: Invalid value: "soon": must be a duration',
    ],
    [
      'a bad eviction threshold',
      'evictionHard: {memory.available: lots}\n',
      'evictionHard.memory.available: Invalid value',
    ],
    [
      'an unknown eviction signal',
      'evictionHard: {cpu.available: "1"}\n',
      'evictionHard.cpu.available: Invalid value',
    ],
    [
      'a bad taint effect',
      'registerWithTaints: [{key: a, effect: Sometimes}]\n',
      'registerWithTaints[0].effect',
    ],
    [
      'an unknown embedded field',
      'authentication: {webhook: {enable: true}}\n',
      'authentication.webhook.enable: unknown field',
    ],
  ])('names the file and the field for %s', (_name, body, want) => {
    const p = write(`${head}${body}`);
    expect(() => loadNodeAgentConfig(flavor, { config: p })).toThrow(NodeAgentConfigError);
    expect(() => loadNodeAgentConfig(flavor, { config: p })).toThrow(`${p}: `);
    expect(() => loadNodeAgentConfig(flavor, { config: p })).toThrow(want);
  });

  it('names a bad drop-in, not the main file', () => {
    const conf = write(`${head}maxPods: 10\n`);
    const d = join(dir, `bad-${flavor.name}`);
    mkdirSync(d);
    const bad = write(`${head}port: 70000\n`, '50-bad.conf', d);
    expect(() => loadNodeAgentConfig(flavor, { config: conf, configDir: d })).toThrow(
      `${bad}: port: Invalid value`,
    );
  });

  it('refuses the other flavor kind, YAML errors, deep nesting, huge files and a missing file', () => {
    const other = flavor.name === 'kubernetes' ? configTypeOf(orchFlavor) : configTypeOf(kubernetesFlavor);
    const wrongKind = write(`apiVersion: ${apiVersion}\nkind: ${other.kind}\n`);
    expect(() => loadNodeAgentConfig(flavor, { config: wrongKind })).toThrow(
      `${wrongKind}: kind: Unsupported value`,
    );
    const notYaml = write('a: [\n');
    expect(() => loadNodeAgentConfig(flavor, { config: notYaml })).toThrow(`${notYaml}: not YAML or JSON`);
    const deep = write(`${head}featureGates: ${'['.repeat(200)}${']'.repeat(200)}\n`);
    expect(() => loadNodeAgentConfig(flavor, { config: deep })).toThrow(
      `${deep}: nested deeper than 64 levels`,
    );
    const huge = write(`${head}providerID: ${'x'.repeat(1024 * 1024 + 1)}\n`);
    expect(() => loadNodeAgentConfig(flavor, { config: huge })).toThrow(`${huge}: larger than 1048576 bytes`);
    expect(() => loadNodeAgentConfig(flavor, { config: join(dir, 'missing.yaml') })).toThrow('cannot read');
    const notMap = write('- 1\n- 2\n');
    expect(() => loadNodeAgentConfig(flavor, { config: notMap })).toThrow(NodeAgentConfigError);
  });
});
