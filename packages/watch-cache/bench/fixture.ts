/** The ConfigMap fixture (~450 bytes of JSON each) shared by list.bench.ts and memory.bench.ts. */
import type { ApiObject } from '@orchard/meta';
import type { KeyValue } from '@orchard/store';

export const P = '/core/configmaps/';
const enc = new TextEncoder();
const dec = new TextDecoder();

/** Decodes a stored ConfigMap as the server does: resourceVersion = the key's modRevision. */
export function decode(kv: KeyValue): ApiObject {
  const o = JSON.parse(dec.decode(kv.value)) as ApiObject;
  (o.metadata as { resourceVersion?: string }).resourceVersion = String(kv.modRevision);
  return o;
}

/** The serialized ConfigMap number `i`; `v` varies its data so updates change the value. */
export const value = (i: number, v = 'x') =>
  enc.encode(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `cm-${String(i).padStart(5, '0')}`,
        namespace: 'default',
        uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
        creationTimestamp: '2026-01-01T00:00:00Z',
        labels: { app: 'bench', shard: String(i % 16) },
      },
      data: { config: v.repeat(300) },
    }),
  );
