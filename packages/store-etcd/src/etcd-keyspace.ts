/**
 * Maps Store keys to etcd keys under one prefix. etcd orders keys by their UTF-8 bytes, which is the
 * Store's UTF-16 code-unit order for every key without characters beyond U+FFFF (all Kubernetes names);
 * keys with such characters still round-trip, only their relative order to U+E000–U+FFFF differs.
 */
export interface EtcdKeyspace {
  /** The prefix itself as bytes. */
  readonly root: Buffer;
  toEtcd(key: string): Buffer;
  toKey(etcdKey: Buffer): string;
  /** The etcd range of the keys starting with `prefix` and >= `startKey`; `undefined` when empty. */
  range(prefix: string, startKey?: string): { start: Buffer; end: Buffer } | undefined;
}

/** The smallest key greater than every key that starts with `b` (etcd's prefix range end). */
export function prefixEnd(b: Buffer): Buffer {
  const end = Buffer.from(b);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  // Every byte is 0xff: the range runs to the end of the keyspace.
  return Buffer.from([0]);
}

export function createEtcdKeyspace(prefix: string): EtcdKeyspace {
  const root = Buffer.from(prefix, 'utf8');
  const toEtcd = (key: string) => Buffer.concat([root, Buffer.from(key, 'utf8')]);
  return {
    root,
    toEtcd,
    toKey: (etcdKey) => etcdKey.subarray(root.length).toString('utf8'),
    range(p, startKey) {
      const from = toEtcd(p);
      const end = prefixEnd(from);
      const start = startKey !== undefined && startKey > p ? toEtcd(startKey) : from;
      const endless = end.length === 1 && end[0] === 0;
      if (!endless && Buffer.compare(start, end) >= 0) return undefined;
      return { start, end };
    },
  };
}
