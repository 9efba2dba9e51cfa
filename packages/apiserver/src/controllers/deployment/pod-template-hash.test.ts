import { describe, expect, it } from 'vitest';
import { canonicalJson, computePodTemplateHash, fnv32a, safeEncodeString } from './pod-template-hash.js';

describe('pod-template-hash', () => {
  it('FNV-32a as Go hash/fnv computes it', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(fnv32a(enc(''))).toBe(0x811c9dc5);
    expect(fnv32a(enc('a'))).toBe(0xe40c292c);
    expect(fnv32a(enc('foobar'))).toBe(0xbf9cf968);
  });

  it('spells the sum with upstream SafeEncodeString', () => {
    expect(safeEncodeString('123')).toBe('567');
    expect(safeEncodeString('0')).toBe('4');
  });

  it('ignores key order and the hash label; the collision count changes it', () => {
    const a = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const b = {
      spec: { containers: [{ image: 'nginx', name: 'c' }] },
      metadata: { labels: { 'pod-template-hash': 'xyz', app: 'web' } },
    };
    expect(canonicalJson(a)).not.toBe(JSON.stringify(b));
    expect(computePodTemplateHash(b)).toBe(computePodTemplateHash(a));
    expect(computePodTemplateHash(a)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(computePodTemplateHash(a, 1)).not.toBe(computePodTemplateHash(a));
    expect(
      computePodTemplateHash({ ...a, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }),
    ).not.toBe(computePodTemplateHash(a));
  });
});
