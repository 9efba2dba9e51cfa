/**
 * The `pod-template-hash` label of a Deployment's ReplicaSets. Upstream hashes the Go struct of the
 * template (FNV-32a over its `spew` dump, then the collision count as 8 little-endian bytes) and
 * spells the decimal sum with `rand.SafeEncodeString`. A Go struct dump cannot be reproduced from
 * JSON, so this hashes the template's canonical JSON (keys sorted, the hash label left out) the
 * same way: same algorithm and alphabet, so names look alike (`web-7d4b9c8f5`), values differ.
 */

/** The label upstream puts on a Deployment's ReplicaSets, their selectors and templates. */
export const podTemplateHashLabel = 'pod-template-hash';

/** Upstream's `rand.SafeEncodeString` alphabet: no vowels, no look-alikes. */
const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-32a of `bytes` (Go's `hash/fnv` `New32a`). */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Upstream's `rand.SafeEncodeString`: each character mapped into the safe alphabet. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length];
  return out;
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The template without its `pod-template-hash` label (upstream compares templates so). */
export function templateWithoutHash(template: unknown): unknown {
  const t = structuredClone(template ?? {}) as { metadata?: { labels?: Record<string, string> } };
  if (t.metadata?.labels) {
    delete t.metadata.labels[podTemplateHashLabel];
    if (Object.keys(t.metadata.labels).length === 0) delete t.metadata.labels;
  }
  return t;
}

/** The hash of a pod template (with the Deployment's `status.collisionCount`, when set). */
export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  const bytes = new TextEncoder().encode(canonicalJson(templateWithoutHash(template)));
  let h = fnv32a(bytes);
  if (collisionCount !== undefined) {
    const extra = new Uint8Array(8);
    new DataView(extra.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(extra, h);
  }
  return safeEncodeString(String(h));
}
