import { kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { isEncryptionConfigError, parseEncryptionConfiguration } from './encryption-config.js';
import { createResourceTransformers } from './resource-transformers.js';

const k16 = Buffer.alloc(16, 1).toString('base64');
const k32 = Buffer.alloc(32, 2).toString('base64');
const head = 'apiVersion: apiserver.config.orch.io/v1\nkind: EncryptionConfiguration\n';

function error(text: string, options = {}): string {
  try {
    parseEncryptionConfiguration(text, { file: 'enc.yaml', ...options });
  } catch (e) {
    expect(isEncryptionConfigError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('parseEncryptionConfiguration', () => {
  it('reads every provider, keys decoded, in order', () => {
    const c = parseEncryptionConfiguration(
      `${head}resources:
  - resources: [secrets, configmaps]
    providers:
      - aesgcm: {keys: [{name: k2, secret: ${k32}}, {name: k1, secret: ${k16}}]}
      - aescbc: {keys: [{name: c1, secret: ${k16}}]}
      - secretbox: {keys: [{name: s1, secret: ${k32}}]}
      - identity: {}
`,
    );
    expect(c.resources[0]?.resources).toEqual(['secrets', 'configmaps']);
    expect(c.resources[0]?.providers.map((p) => p.type)).toEqual([
      'aesgcm',
      'aescbc',
      'secretbox',
      'identity',
    ]);
    const gcm = c.resources[0]?.providers[0];
    expect(gcm?.type === 'aesgcm' && gcm.keys.map((k) => [k.name, k.secret.byteLength])).toEqual([
      ['k2', 32],
      ['k1', 16],
    ]);
  });

  it("uses the flavor's group: apiserver.config.k8s.io under kubernetes", () => {
    const k8s = head.replace('orch.io', 'k8s.io');
    const body = 'resources: [{resources: [secrets], providers: [{identity: {}}]}]\n';
    expect(parseEncryptionConfiguration(k8s + body, { flavor: kubernetesFlavor }).apiVersion).toBe(
      'apiserver.config.k8s.io/v1',
    );
    expect(error(k8s + body)).toBe(
      'enc.yaml: apiVersion: Unsupported value: "apiserver.config.k8s.io/v1": supported values: "apiserver.config.orch.io/v1"',
    );
  });

  it.each([
    [
      `secret: ${Buffer.alloc(20).toString('base64')}`,
      'aesgcm',
      'secret is not of the expected length, got 20, expected one of [16 24 32]',
    ],
    [`secret: ${k16}`, 'secretbox', 'secret is not of the expected length, got 16, expected one of [32]'],
    ['secret: "not base64!"', 'aescbc', 'secrets must be base64 encoded'],
  ])('refuses a bad key (%s for %s) without echoing it', (secret, provider, detail) => {
    const m = error(
      `${head}resources: [{resources: [secrets], providers: [{${provider}: {keys: [{name: a, ${secret}}]}}]}]\n`,
    );
    expect(m).toBe(
      `enc.yaml: resources[0].providers[0].${provider}.keys[0].secret: Invalid value: "REDACTED": ${detail}`,
    );
  });

  it('names every bad field, with upstream wording', () => {
    const m = error(`${head}resources:
  - resources: ['*', Secrets, 'pods.*', secrets, secrets]
    providers:
      - {aesgcm: {keys: []}}
      - {identity: {}, aescbc: {keys: [{name: a, secret: ${k16}}]}}
      - {}
      - {secretbox: {keys: [{secret: ${k32}}, {name: 'x:y', secret: ${k32}}]}}
`);
    for (const part of [
      'resources[0].resources: Invalid value: ',
      'the same resource cannot be specified multiple times',
      'resources[0].resources[0]: Invalid value: "*": use \'*.\' to encrypt all the resources from core API group or *.* to encrypt all resources',
      'resources[0].resources[1]: Invalid value: "Secrets": resource name should not contain capital letters',
      'resources[0].resources[2]: Invalid value: "pods.*": encrypting the same resource across groups is not supported',
      'resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required',
      'more than one provider specified in a single element, should split into different list elements',
      'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
      'resources[0].providers[3].secretbox.keys[0].name: Required value: name is a mandatory field for a key',
      'resources[0].providers[3].secretbox.keys[1].name: Invalid value: "x:y": must not contain \':\'',
    ])
      expect(m).toContain(part);
  });

  it('refuses kms with a clear message', () => {
    expect(
      error(
        `${head}resources: [{resources: [secrets], providers: [{kms: {name: p, endpoint: 'unix:///kms.sock'}}]}]\n`,
      ),
    ).toBe(
      'enc.yaml: resources[0].providers[0].kms: Forbidden: KMS providers are not supported by this server (it has no KMS plugin client); use aesgcm, aescbc or secretbox',
    );
  });

  it.each([
    ['', 'enc.yaml: the file is empty'],
    ['[1, 2]', 'enc.yaml: not an EncryptionConfiguration object'],
    ['a: [', 'not valid YAML or JSON'],
    [`${head}resources: []\n`, 'enc.yaml: resources: Required value: at least one resources is required'],
    [
      `${head}resources: [{resources: [secrets]}]\n`,
      'resources[0].providers: Required value: at least one resources[0].providers is required',
    ],
    [`${head}kind2: x\n`, 'enc.yaml: kind2: unknown field'],
    [
      `${head}resources: [{resources: [secrets], providers: [{identity: {}}], __proto__: {x: 1}}]\n`,
      'resources[0].__proto__: unknown field',
    ],
    [
      `${head}resources: [{resources: [secrets], providers: [{identity: {}, constructor: 1}]}]\n`,
      'constructor: unknown field',
    ],
    [
      `${head}resources: [{resources: "secrets", providers: [{identity: {}}]}]\n`,
      'resources[0].resources: Invalid value',
    ],
    [
      'apiVersion: apiserver.config.orch.io/v1\nkind: AuthenticationConfiguration\n',
      'kind: Unsupported value: "AuthenticationConfiguration"',
    ],
    [`${'['.repeat(5000)}${']'.repeat(5000)}`, 'enc.yaml'],
    ['x'.repeat((1 << 20) + 1), 'enc.yaml: larger than 1048576 bytes'],
  ])('refuses hostile or malformed input %#', (text, part) => {
    expect(error(text)).toContain(part);
  });
});

describe('createResourceTransformers', () => {
  const build = (resources: string) =>
    createResourceTransformers(parseEncryptionConfiguration(`${head}resources:\n${resources}`));
  const gcm = `providers: [{aesgcm: {keys: [{name: k, secret: ${k32}}]}}]`;

  it('resolves exact, *.<group>, *.* and leaves the rest to identity', () => {
    const t = build(`  - resources: [secrets]\n    ${gcm}\n  - resources: ['*.apps']\n    ${gcm}\n`);
    expect(t.covers({ group: '', resource: 'secrets' })).toBe(true);
    expect(t.covers({ group: 'apps', resource: 'deployments' })).toBe(true);
    expect(t.covers({ group: '', resource: 'configmaps' })).toBe(false);
    const all = build(`  - resources: ['*.*']\n    ${gcm}\n`);
    expect(all.covers({ group: 'example.com', resource: 'widgets' })).toBe(true);
    const plain = new TextEncoder().encode('{}');
    const v = t.transformerFor({ group: '', resource: 'secrets' }).toStorage(plain, '/core/secrets/a/b');
    expect(new TextDecoder().decode(v.subarray(0, 20))).toBe('k8s:enc:aesgcm:v1:k:');
    expect(t.transformerFor({ group: '', resource: 'configmaps' }).toStorage(plain, '/x')).toBe(plain);
    expect(t.describe()).toEqual(['secrets → aesgcm(k)', '*.apps → aesgcm(k)']);
  });

  it('refuses a rule masked by an earlier wildcard, as upstream', () => {
    expect(() => build(`  - resources: ['*.*']\n    ${gcm}\n  - resources: [secrets]\n    ${gcm}\n`)).toThrow(
      'resource "secrets" is masked by earlier rule "*.*"',
    );
    expect(() =>
      build(`  - resources: ['*.']\n    ${gcm}\n  - resources: [configmaps]\n    ${gcm}\n`),
    ).toThrow('resource "configmaps" is masked by earlier rule "*."');
  });
});
